import Foundation
import Synchronization
import Testing
import TweetieDB
@testable import TweetieDBCore

/// An import whose records outgrow the map: its write body runs again after the map grows, and
/// must read every record again, from a regular file and from a pipe alike.
@Suite("Import across map growth")
struct ImportMapGrowthTests {
    enum Input: String, CaseIterable { case file, pipe }

    /// A store with `count` small posts and one member.
    static func source(_ count: Int) throws -> Store {
        var configuration = StoreConfiguration()
        configuration.durability = .noSync
        let store = try Store.temporary(collections: [Post.self, Member.self], configuration: configuration)
        let epoch = Date(timeIntervalSince1970: 1_500_000_000)
        let posts = (1...count).map { Post(id: Int64($0), author: "a\($0 % 13)", text: "post \($0)", created: epoch.addingTimeInterval(Double($0)), likes: $0 % 7) }
        try store.write { tx in
            try tx.add(contentsOf: posts)
            try tx.add(Member(id: "ash", handle: "ashfurrow", name: "Ash"))
        }
        return store
    }

    /// An empty store whose map starts at 1 MiB.
    static func smallMapTarget() throws -> Store {
        var configuration = StoreConfiguration()
        configuration.mapSize = 1 << 20
        configuration.durability = .noSync
        return try Store.temporary(collections: [Post.self, Member.self], configuration: configuration)
    }

    /// Imports `bytes` from a regular file or through a pipe (fed by another thread).
    static func importBytes(_ bytes: [UInt8], from input: Input, into store: Store, reserveMap: Bool,
                            progress: ((Int, Int) -> Void)? = nil) throws -> ImportSummary {
        switch input {
        case .file:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).ndjson").path
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let fd = open(path, O_RDONLY)
            defer { close(fd) }
            return try store.importNDJSON(from: fd, mode: .merge, maxLineBytes: 1 << 20, reserveMap: reserveMap, progress: progress)
        case .pipe:
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            let writeEnd = fds[1]
            let writer = Thread {
                bytes.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let n = write(writeEnd, buffer.baseAddress! + offset, buffer.count - offset)
                        if n <= 0 { break }
                        offset += n
                    }
                }
                close(writeEnd)
            }
            writer.start()
            defer { close(fds[0]) }
            return try store.importNDJSON(from: fds[0], mode: .merge, maxLineBytes: 1 << 20, reserveMap: reserveMap, progress: progress)
        }
    }

    /// Export → import into a 1 MiB map without growing it ahead → export: byte-identical, and
    /// the map grew `growths` times (1 MiB × 2^growths) while the import ran.
    @Test(arguments: [(6_000, 1), (20_000, 2)], Input.allCases)
    func roundTripAcrossMapGrowthsIsByteIdentical(records: (count: Int, growths: Int), input: Input) throws {
        let source = try Self.source(records.count)
        defer { source.close() }
        let first = try TransferTests.export(source)
        let target = try Self.smallMapTarget()
        defer { target.close() }
        var reported: [Int] = []
        let summary = try Self.importBytes(first, from: input, into: target, reserveMap: false) { records, _ in reported.append(records) }
        #expect(target.environment.info().mapSize == (1 << 20) << records.growths, "the map did not grow as the test expects: it does not test the re-run")
        #expect(summary.records == records.count + 1 && summary.counts.inserted == records.count + 1)
        #expect(summary.perCollection == ["posts": records.count, "members": 1])
        // No run counted past the file, and the one that committed counted all of it.
        #expect(reported.last == records.count + 1 && reported.max() == records.count + 1)
        #expect(try TransferTests.export(target) == first)
        #expect(try target.verify().problems.isEmpty)
        #expect(try target.read { try $0.lastChangeSequence() } == 1, "the import must commit once")
    }

    /// At 200,000 records (about 25 MB of NDJSON), through a pipe, the map starting at 1 MiB:
    /// six growths, then a byte-identical export. Slow in a debug build (the body runs seven
    /// times): opt in with `TWEETIE_BIG_IMPORT=1`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TWEETIE_BIG_IMPORT"] == "1",
                   "set TWEETIE_BIG_IMPORT=1 to run the 200,000-record import across six map growths"))
    func twoHundredThousandRecordsThroughAPipeAcrossSeveralGrowths() throws {
        let source = try Self.source(200_000)
        defer { source.close() }
        let first = try TransferTests.export(source)
        let target = try Self.smallMapTarget()
        defer { target.close() }
        var reported: [Int] = []
        let summary = try Self.importBytes(first, from: .pipe, into: target, reserveMap: false) { records, _ in reported.append(records) }
        #expect(target.environment.info().mapSize >= 8 << 20)
        #expect(summary.records == 200_001)
        // Progress starts again from zero in every run: it went back down at least once.
        #expect(zip(reported, reported.dropFirst()).contains { $0 > $1 }, "no run started over: \(reported.count) progress calls")
        #expect(try TransferTests.export(target) == first)
    }

    /// Grown once ahead from the input's size, the import runs once: the map is exactly the
    /// estimate (a re-run would have doubled it) and the progress never goes back.
    @Test(arguments: Input.allCases)
    func theMapIsGrownOnceAheadFromTheInputSize(input: Input) throws {
        let source = try Self.source(40_000)
        defer { source.close() }
        let first = try TransferTests.export(source)
        let target = try Self.smallMapTarget()
        defer { target.close() }
        let headerBytes = first.firstIndex(of: 0x0A)! + 1
        let estimate = Store.mapSizeNeeded(toImport: first.count - headerBytes, into: target.environment.info())
        let pageSize = target.environment.info().pageSize
        var reported: [Int] = []
        _ = try Self.importBytes(first, from: input, into: target, reserveMap: true) { records, _ in reported.append(records) }
        #expect(target.environment.info().mapSize == (estimate + pageSize - 1) / pageSize * pageSize)
        #expect(reported == reported.sorted() && reported.last == 40_001)
        #expect(try TransferTests.export(target) == first)
    }

    /// Two imports at once into one store (one from a file, one through a pipe, from two threads,
    /// as two processes would): the second to write finds the map too small for both and runs
    /// again; both succeed and the store holds both files.
    @Test func twoConcurrentImportsBothSucceed() throws {
        let left = try Self.source(9_000)
        defer { left.close() }
        let right = try Store.temporary(collections: [Post.self, Member.self])
        defer { right.close() }
        try right.write { tx in
            for i in 9_001...18_000 {
                try tx.add(Post(id: Int64(i), author: "b\(i % 5)", text: "other \(i)", created: Date(timeIntervalSince1970: Double(i)), likes: 1))
            }
        }
        let exports = [try TransferTests.export(left), try TransferTests.export(right)]
        let target = try Self.smallMapTarget()
        defer { target.close() }
        let results = Mutex<[Int: Result<ImportSummary, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let result = Result { try Self.importBytes(exports[index], from: index == 0 ? .file : .pipe, into: target, reserveMap: false) }
            results.withLock { $0[index] = result }
        }
        for (index, result) in results.withLock({ $0 }) {
            #expect(throws: Never.self, "import \(index)") { _ = try result.get() }
        }
        #expect(target.environment.info().mapSize > 1 << 20)
        #expect(try target.read { try $0.count(Post.self) } == 18_000)
        #expect(try target.verify().problems.isEmpty)
    }
}
