#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A reader–writer lock (`pthread_rwlock_t`) that prefers readers, so a thread that already holds
/// it shared may take it shared again without deadlocking behind a waiting writer.
final class ReadWriteLock: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func lockShared() { pthread_rwlock_rdlock(lock) }
    func lockExclusive() { pthread_rwlock_wrlock(lock) }
    func unlock() { pthread_rwlock_unlock(lock) }
}

/// A plain mutex with a condition variable, for the writer thread's queue.
final class ConditionLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    func wait() { pthread_cond_wait(condition, mutex) }
    func signal() { pthread_cond_signal(condition) }
    func broadcast() { pthread_cond_broadcast(condition) }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Per-thread counters of the transactions a thread has open, kept in a pthread key.
///
/// Used to refuse a nested write (which would deadlock on LMDB's writer mutex) and to know when
/// growing the map would wait on the calling thread itself.
enum ThreadTransactions {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Bit layout: low 32 bits count open transactions of any kind, bit 32 marks an open write.
    private static var raw: Int {
        get { Int(bitPattern: pthread_getspecific(key)) }
        set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
    }

    static var openCount: Int { raw & 0xFFFF_FFFF }
    static var inWrite: Bool { raw & (1 << 32) != 0 }

    static func didBegin(write: Bool) {
        raw = (raw + 1) | (write ? 1 << 32 : 0)
    }

    static func didEnd(write: Bool) {
        var value = raw - 1
        if write { value &= ~(1 << 32) }
        raw = value
    }
}
