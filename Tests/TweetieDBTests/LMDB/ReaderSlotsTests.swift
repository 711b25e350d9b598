import Foundation
import Synchronization
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// Holds read transactions open, each on its own thread, until ``release()``: a crowd of slow
/// readers (exports writing into a pipe nobody reads, say).
final class HeldReaders: Sendable {
    private let count: Int
    private let released = DispatchSemaphore(value: 0)
    private let ended = DispatchGroup()
    private let errors = Mutex<[String]>([])

    /// Starts `count` threads, each running `read` with a body that holds the transaction; returns
    /// once every one holds its transaction or failed to begin it.
    init(_ count: Int, read: @escaping @Sendable (_ hold: () -> Void) throws -> Void) {
        self.count = count
        let started = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            ended.enter()
            Thread { [self] in
                do {
                    try read {
                        started.signal()
                        released.wait()
                    }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                    started.signal()
                }
                ended.leave()
            }.start()
        }
        for _ in 0..<count where started.wait(timeout: .now() + 60) == .timedOut {
            errors.withLock { $0.append("a reader thread did not begin within 60 s") }
        }
    }

    /// The errors of the readers that could not begin.
    var failures: [String] { errors.withLock { $0 } }

    func release() {
        for _ in 0..<count { released.signal() }
        ended.wait()
    }
}

@Suite("Reader slots")
struct ReaderSlotsTests {
    /// LMDB's default of 126 slots let 130 slow readers lock every writer out.
    @Test func theDefaultAllowsFarMoreThan126ConcurrentReaders() throws {
        let dir = TemporaryDirectory("readers")
        defer { dir.remove() }
        let env = try Environment.open(at: dir.path)
        defer { env.close() }
        let db = try env.database(named: "kv")
        let readers = HeldReaders(300) { hold in try env.read { _ in hold() } }
        defer { readers.release() }
        #expect(readers.failures.isEmpty, "\(readers.failures.count) readers failed: \(readers.failures.first ?? "")")
        #expect(env.info().readersInUse >= 300)
        try env.write { tx in try tx.put(bytes("k"), bytes("v"), in: db) }
        #expect(try env.read { try $0.value(for: bytes("k"), in: db) } == bytes("v"))
    }

    @Test func runningOutOfSlotsSaysHowManyThereAreAndWhatToRaise() throws {
        let dir = TemporaryDirectory("readers-full")
        defer { dir.remove() }
        var configuration = Configuration()
        configuration.maxReaders = 4
        let env = try Environment.open(at: dir.path, configuration: configuration)
        defer { env.close() }
        let readers = HeldReaders(4) { hold in try env.read { _ in hold() } }
        #expect(readers.failures.isEmpty)
        let error = #expect(throws: StoreError.self) { try env.read { _ in } }
        #expect(error?.code == .readersFull)
        #expect(error?.message.contains("all 4 reader slots are in use") == true, "\(String(describing: error))")
        #expect(error?.message.contains("StoreConfiguration.maxReaders") == true)
        readers.release()
        try env.read { _ in }
    }
}
