#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
