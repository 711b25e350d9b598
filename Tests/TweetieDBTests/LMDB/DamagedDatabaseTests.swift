import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
#if canImport(Glibc)
import Glibc
#endif
import TweetieTestSupport

/// Opening directories that are not TweetieDB databases, damaged files, read-only and full disks:
/// every case is a clear `StoreError`, never a crash, and leaves the bytes on disk as they were.
@Suite("Damaged and hostile databases")
struct DamagedDatabaseTests {
    static func post(_ id: Int) -> Post {
        Post(id: Int64(id), author: ["ann", "bob", "cy"][id % 3], text: "post \(id) " + String(repeating: "x", count: id % 50),
             created: Date(timeIntervalSince1970: 1_544_000_000 + Double(id) * 60), likes: id)
    }

    /// A closed database with `count` posts in `dir`; returns its export.
    @discardableResult
    static func makeDatabase(in path: String, count: Int) throws -> [UInt8] {
        let store = try Store.open(at: path, collections: [Post.self])
        defer { store.close() }
        try store.write { tx in for id in 1...count { try tx.add(post(id)) } }
        return try export(store)
    }

    static func export(_ store: Store) throws -> [UInt8] {
        var out: [UInt8] = []
        try store.exportNDJSON { out.append(contentsOf: $0) }
        return out
    }

    static func contents(_ path: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            result[name] = try Data(contentsOf: URL(fileURLWithPath: "\(path)/\(name)"))
        }
        return result
    }

    static func randomBytes(_ count: Int, seed: UInt64) -> Data {
        var random = SeededRandom(seed: seed)
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    // MARK: Not a TweetieDB database

    @Test func emptyDirectoryBecomesANewDatabase() throws {
        let dir = TemporaryDirectory("empty")
        defer { dir.remove() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        try Self.makeDatabase(in: dir.path, count: 3)
        let store = try Store.open(at: dir.path, collections: [Post.self])
        defer { store.close() }
        #expect(try store.read { try $0.count(Post.self) } == 3)
    }

    @Test func directoryWithOtherFilesIsRefusedAndLeftAlone() throws {
        let dir = TemporaryDirectory("random-files")
        defer { dir.remove() }
        try Self.randomBytes(10_000, seed: 1).write(to: URL(fileURLWithPath: dir.sub("photo.jpg")))
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: dir.sub("notes.txt")))
        let before = try Self.contents(dir.path)
        let error = #expect(throws: StoreError.self) { try Store.open(at: dir.path, collections: [Post.self]) }
        #expect(error?.code == .notADatabase)
        #expect(error?.message.contains("2 other file(s) (notes.txt, photo.jpg)") == true)
        #expect(error?.description.contains(dir.path) == true)
        #expect(try Self.contents(dir.path) == before, "nothing may be created or changed")
    }

    @Test(arguments: [0, 1, 2])
    func randomDataFileIsRefusedAndLeftAlone(seed: UInt64) throws {
        let dir = TemporaryDirectory("random-data")
        defer { dir.remove() }
        try Self.randomBytes([8_192, 65_536, 200][Int(seed)], seed: seed).write(to: URL(fileURLWithPath: dir.sub("data.mdb")))
        let before = try Self.contents(dir.path)
        let error = #expect(throws: StoreError.self) { try Store.open(at: dir.path, collections: [Post.self]) }
        #expect(error?.code == .notADatabase)
        #expect(error?.message == "data.mdb is not a valid LMDB file (MDB_INVALID: File is not a valid LMDB file)")
        #expect(try Self.contents(dir.path) == before, "data.mdb unchanged and no lock.mdb left behind")
    }

    @Test func foreignLMDBEnvironmentIsRefusedAndLeftUnchanged() throws {
        let dir = TemporaryDirectory("foreign-env")
        defer { dir.remove() }
        do {
            let env = try Environment.open(at: dir.path)
            let other = try env.database(named: "accounts")
            try env.write { tx in for i in 0..<100 { try tx.put(bytes("key\(i)"), bytes("value\(i)"), in: other) } }
            env.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: dir.sub("data.mdb")))
        let error = #expect(throws: StoreError.self) { try Store.open(at: dir.path, collections: [Post.self]) }
        #expect(error?.code == .notADatabase)
        #expect(error?.message.contains("not created by TweetieDB") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.sub("data.mdb"))) == before)
    }

    // MARK: Damaged files

    /// Cut inside the meta pages: MDB_INVALID. Cut after them but before the last committed page:
    /// refused before LMDB maps a page past the end of the file (which would be SIGBUS).
    @Test func truncatedDataFileIsRefusedAtEverySize() throws {
        let dir = TemporaryDirectory("truncated")
        defer { dir.remove() }
        let original = try Self.makeDatabase(in: dir.sub("source"), count: 1_500)
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.sub("source/data.mdb")))
        let pageSize = 4_096
        #expect(data.count > 40 * pageSize)
        // 0 bytes: LMDB treats an empty file as a new database (nothing was lost: no page was written).
        for cut in [100, pageSize, 2 * pageSize - 1, 2 * pageSize, 3 * pageSize, data.count / 2, data.count - 10 * pageSize] {
            let path = dir.sub("cut-\(cut)")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let truncated = data.prefix(cut)
            try truncated.write(to: URL(fileURLWithPath: "\(path)/data.mdb"))
            let error = #expect(throws: StoreError.self, "cut at \(cut) bytes") { try Store.open(at: path, collections: [Post.self]) }
            if cut < 2 * pageSize - 1 {
                #expect(error?.code == .notADatabase, "cut at \(cut): \(String(describing: error))")
            } else {
                #expect(error?.code == .corrupted, "cut at \(cut): \(String(describing: error))")
                #expect(error?.message.hasPrefix("data.mdb is truncated: it holds \(cut) bytes") == true)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(path)/data.mdb")) == truncated, "the file is left as it was")
        }
        // The untouched copy still opens with every record.
        let store = try Store.open(at: dir.sub("source"), collections: [Post.self])
        defer { store.close() }
        #expect(try Self.export(store) == original)
    }

    @Test func emptyDataFileOpensAsANewDatabase() throws {
        let dir = TemporaryDirectory("zero")
        defer { dir.remove() }
        #expect(FileManager.default.createFile(atPath: dir.sub("data.mdb"), contents: Data()))
        let store = try Store.open(at: dir.path, collections: [Post.self])
        defer { store.close() }
        #expect(try store.read { try $0.count(Post.self) } == 0)
    }

    /// A damaged record on a leaf page (its bytes changed, LMDB's node header intact): LMDB hands
    /// the bytes back, and TweetieDB's decoder rejects them — export throws `decodingFailed`,
    /// verify lists the record. (Random bytes over a whole page would crash LMDB itself, which
    /// trusts its page layout; verify checks the page structure first — see
    /// `PageStructureCheckTests`.)
    @Test func corruptedRecordIsReportedNotCrashed() throws {
        let dir = TemporaryDirectory("corrupt-record")
        defer { dir.remove() }
        try Self.makeDatabase(in: dir.path, count: 1_500)
        let url = URL(fileURLWithPath: dir.sub("data.mdb"))
        var data = try Data(contentsOf: url)
        let marker = Data("post 700 ".utf8)
        let found = try #require(data.range(of: marker))
        let page = found.lowerBound / 4_096 * 4_096
        func u16(_ offset: Int) -> Int { Int(data[offset]) | Int(data[offset + 1]) << 8 }
        #expect(u16(page + 10) & 0x02 == 0x02, "the page holding the record is a leaf page")
        // Walk the leaf's nodes (pointers after the 16-byte header) to the one holding the marker,
        // and change the record's first byte, its format version.
        var corrupted = false
        for slot in 0..<((u16(page + 12) - 16) / 2) {
            let node = page + u16(page + 16 + 2 * slot)
            let keySize = u16(node + 6), dataSize = u16(node)
            let value = node + 8 + keySize
            if (value..<(value + dataSize)).contains(found.lowerBound) {
                #expect(data[value] == 0x01)
                data[value] = 0x7E
                corrupted = true
            }
        }
        #expect(corrupted)
        try data.write(to: url)

        let store = try Store.open(at: dir.path, collections: [Post.self])
        defer { store.close() }
        let error = #expect(throws: StoreError.self) { try Self.export(store) }
        #expect(error?.code == .decodingFailed)
        #expect(error?.message.hasPrefix("record 700 cannot be decoded") == true, "\(String(describing: error))")
        let report = try store.verify()
        #expect(report.problems.contains { $0.hasPrefix("posts: record 700 cannot be decoded") }, "\(report.problems)")
        #expect(throws: (any Error).self) { try store.read { try $0.get(Post.self, key: 700) } }
    }

    // MARK: Newer format

    @Test func newerFormatIsRefusedWithItsVersionAndLeftUntouched() throws {
        let dir = TemporaryDirectory("newer-format")
        defer { dir.remove() }
        try Self.makeDatabase(in: dir.path, count: 5)
        do {
            let env = try Environment.open(at: dir.path)
            let meta = try env.database(named: "_meta")
            try env.write { tx in try tx.put(Array("format".utf8), [0, 0, 0, UInt8(Store.formatVersion + 1)], in: meta) }
            env.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: dir.sub("data.mdb")))
        let error = #expect(throws: StoreError.self) { try Store.open(at: dir.path, collections: [Post.self]) }
        #expect(error?.code == .newerFormat)
        #expect(error?.message == "the database has format version \(Store.formatVersion + 1), but this TweetieDB reads up to version \(Store.formatVersion); upgrade TweetieDB (the database was left untouched)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.sub("data.mdb"))) == before)
    }

    // MARK: Read-only

    @Test func readOnlyDirectoryAndConfiguration() throws {
        let dir = TemporaryDirectory("read-only")
        defer {
            chmod(dir.sub("db"), 0o700)
            dir.remove()
        }
        let original = try Self.makeDatabase(in: dir.sub("db"), count: 20)
        #expect(chmod(dir.sub("db"), 0o500) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: dir.sub("db/data.mdb")))

        var configuration = StoreConfiguration()
        configuration.readOnly = true
        let store = try Store.open(at: dir.sub("db"), configuration: configuration, collections: [Post.self])
        #expect(try Self.export(store) == original)
        let error = #expect(throws: StoreError.self) { try store.write { tx in try tx.add(Self.post(99)) } }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "the environment is open read-only")
        #expect(throws: StoreError.self) { try store.write { tx in try tx.delete(Post.self, key: Int64(1)) } }
        store.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.sub("db/data.mdb"))) == before)

        // Without readOnly: root bypasses the directory's permissions; anyone else gets EACCES.
        if getuid() == 0 {
            let writable = try Store.open(at: dir.sub("db"), collections: [Post.self])
            writable.close()
        } else {
            let denied = #expect(throws: StoreError.self) { try Store.open(at: dir.sub("db"), collections: [Post.self]) }
            #expect(denied?.message.hasPrefix("permission denied") == true)
        }

        // Read-only with a record type the database never held: the collection is named, and
        // nothing is created.
        let unknown = #expect(throws: StoreError.self) {
            try Store.open(at: dir.sub("db"), configuration: configuration, collections: [Post.self, Member.self])
        }
        #expect(unknown?.code == .notFound && unknown?.database == "members")
        #expect(unknown?.message.hasPrefix("the collection 'members' of Member is not in this database, and a store opened read-only cannot create it") == true,
                "\(unknown?.message ?? "")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.sub("db/data.mdb"))) == before)

        // Read-only on a directory without a database: a clear error, nothing created.
        try FileManager.default.createDirectory(atPath: dir.sub("none"), withIntermediateDirectories: true)
        let missing = #expect(throws: StoreError.self) {
            try Store.open(at: dir.sub("none"), configuration: configuration, collections: [Post.self])
        }
        #expect(missing?.code == .system(ENOENT))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.sub("none")).isEmpty)
    }

    // MARK: Full disk

    /// A database on a 2 MiB tmpfs filled until a commit fails: the error is ENOSPC, the failed
    /// transaction is rolled back, and the database reopens with exactly the committed records.
    @Test(.enabled(if: SmallDisk.canMount, "needs root and permission to mount a tmpfs"))
    func fullDiskFailsCleanly() throws {
        let disk = try #require(try SmallDisk(kibibytes: 2048))
        defer { disk.remove() }
        var configuration = StoreConfiguration()
        configuration.mapSize = 1 << 20
        let path = disk.path + "/db"
        var committed: [UInt8] = []
        var failure: StoreError?
        do {
            let store = try Store.open(at: path, configuration: configuration, collections: [Post.self])
            defer { store.close() }
            var next = 1
            for _ in 0..<200 {
                do {
                    try store.write { tx in
                        for id in next..<(next + 100) {
                            try tx.add(Post(id: Int64(id), author: "ann", text: String(repeating: "z", count: 400),
                                            created: Date(timeIntervalSince1970: Double(id)), likes: id))
                        }
                    }
                    next += 100
                    committed = try Self.export(store)
                } catch let error as StoreError {
                    failure = error
                    break
                }
            }
            let error = try #require(failure, "2 MiB must fill up")
            #expect(error.code == .system(ENOSPC), "\(error)")
            #expect(error.operation == "mdb_txn_commit")
            #expect(error.message.hasPrefix("no space left on device ("), "\(error)")
            #expect(error.message.hasSuffix("the transaction was rolled back and the database is unchanged: free some space and retry"), "\(error)")
            // The failed transaction left nothing: reads still see the last commit.
            #expect(try Self.export(store) == committed)
        }
        let reopened = try Store.open(at: path, configuration: configuration, collections: [Post.self])
        defer { reopened.close() }
        #expect(try Self.export(reopened) == committed)
        #expect(try reopened.verify().problems.isEmpty)
    }
}
