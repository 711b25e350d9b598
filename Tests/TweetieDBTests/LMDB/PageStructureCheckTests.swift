import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// `Store.verify()` in process on damaged `data.mdb` files: the page check reads the file with
/// `pread` and reports a damaged page before LMDB could crash on it.
@Suite("Page structure check")
struct PageStructureCheckTests {
    /// A database with several transactions' history: `count` posts, some large enough for
    /// overflow pages, 40 members, then deletions in four transactions, so the free list has records.
    static func makeSource(posts count: Int) -> [UInt8] {
        let dir = TemporaryDirectory("page-check-source")
        defer { dir.remove() }
        do {
            let store = try Store.open(at: dir.path, collections: [Post.self, Member.self])
            try store.write { tx in for id in 1...count { try tx.add(DamagedDatabaseTests.post(id)) } }
            try store.write { tx in
                for id in stride(from: 10, through: count, by: 100) {
                    var post = DamagedDatabaseTests.post(id)
                    post.text = String(repeating: "long \(id) ", count: 900)
                    try tx.add(post, update: .all)
                }
                for id in 0..<40 { try tx.add(Member(id: "m\(id)", handle: "@m\(id)", name: "Member \(id)")) }
            }
            for round in 0..<4 {
                try store.write { tx in
                    for id in stride(from: 3 + round, through: count, by: 7) { try tx.delete(Post.self, key: Int64(id)) }
                }
            }
            store.close()
            return Array(try Data(contentsOf: URL(fileURLWithPath: dir.sub("data.mdb"))))
        } catch {
            fatalError("cannot build the source database: \(error)")
        }
    }

    /// 1,500 posts: every tree of posts has branch pages.
    static let original = makeSource(posts: 1_500)

    /// Writes `bytes` as the data file of a fresh directory.
    static func install(_ bytes: [UInt8], in dir: TemporaryDirectory, name: String = "db") throws -> String {
        let path = dir.sub(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/data.mdb"))
        return path
    }

    /// Opens the damaged copy and verifies it in process: the problems (or the open error).
    static func verifyProblems(_ bytes: [UInt8]) throws -> [String] {
        let dir = TemporaryDirectory("page-check")
        defer { dir.remove() }
        let path = try install(bytes, in: dir)
        let store = try Store.open(at: path, collections: [Post.self, Member.self])
        defer { store.close() }
        return try store.verify().problems
    }

    // MARK: Clean

    @Test func cleanDatabasePassesWithZeroProblems() throws {
        let dir = TemporaryDirectory("page-check-clean")
        defer { dir.remove() }
        let path = try Self.install(Self.original, in: dir)
        let store = try Store.open(at: path, collections: [Post.self, Member.self])
        defer { store.close() }
        let report = try store.verify()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.records["posts"] == 1_500 - 4 * 214)
        #expect(report.records["members"] == 40)

        let pages = try store.environment.checkPageStructure()
        #expect(pages.isSound, "\(pages.problems)")
        #expect(pages.pageSize == 4_096)
        // Free list, main, _meta, _changes, posts and its 2 indexes, members and its index.
        #expect(pages.databases == 2 + 7)
        #expect(pages.freePages > 0, "the deletions freed pages")
        #expect(report.pagesChecked == pages.pagesChecked)
        // Every page of the snapshot is a meta page, a tree page or a free page.
        #expect(pages.pagesChecked + pages.freePages + 2 == pages.lastPage + 1,
                "\(pages.pagesChecked) tree pages + \(pages.freePages) free pages + 2 meta pages vs \(pages.lastPage + 1)")
        // The walk's counts equal LMDB's own statistics of each named database.
        let map = LMDBPageMap(Self.original)
        let statPages = try store.environment.read { tx in
            try ["posts", "posts#created", "posts#author", "members", "members#handle", "_meta", "_changes"].reduce(0) { total, name in
                let stats = try tx.stats(of: try store.environment.database(named: name, create: false))
                return total + stats.branchPages + stats.leafPages + stats.overflowPages
            }
        }
        let mainPages = map.pages(fromRoot: Int(map.u64(map.mainRecordOffset + 40))).joined().count
        let freeListPages = map.pages(fromRoot: Int(map.u64(map.freeListRecordOffset + 40))).joined().count
        #expect(pages.pagesChecked == statPages + mainPages + freeListPages)
        #expect(map.pages(of: "posts").count >= 2, "the posts tree has branch pages")
        #expect(try store.read { try $0.fetch(Query<Post>()).contains { $0.text.count > 4_096 } }, "some posts use overflow pages")
    }

    @Test func emptyNewDatabasePasses() throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        let report = try store.verify()
        #expect(report.problems.isEmpty)
        #expect(try store.environment.checkPageStructure().isSound)
    }

    // MARK: One crafted damage per check

    @Test func badNodeOffsetIsReported() throws {
        var map = LMDBPageMap(Self.original)
        let leaf = try #require(map.pages(of: "posts#created").last?.first)
        map.setU16(map.nodePointerSlot(leaf, 4), 9_000)
        let problems = try Self.verifyProblems(map.bytes)
        #expect(problems == ["page \(leaf) (posts#created, leaf): node 4 offset 9000 lies outside the page"])
    }

    @Test func nodeOffsetInsideTheHeaderIsReported() throws {
        var map = LMDBPageMap(Self.original)
        let leaf = try #require(map.pages(of: "posts").last?[2])
        let upper = map.u16(map.pageOffset(leaf) + 14)
        map.setU16(map.nodePointerSlot(leaf, 1), 20)
        let problems = try Self.verifyProblems(map.bytes)
        #expect(problems == ["page \(leaf) (posts, leaf): node 1 offset 20 lies below the node area, which starts at \(upper)"])
    }

    @Test func wrongPageNumberIsReported() throws {
        var map = LMDBPageMap(Self.original)
        let leaf = try #require(map.pages(of: "posts").last?[1])
        map.setU64(map.pageOffset(leaf), 1_234)
        let problems = try Self.verifyProblems(map.bytes)
        #expect(problems == ["page \(leaf) (posts, leaf): its header says it is page 1234"])
    }

    @Test func cycleIsReported() throws {
        var map = LMDBPageMap(Self.original)
        let levels = map.pages(of: "posts")
        let root = try #require(levels.first?.first)
        try #require(levels.count == 2, "posts is a two-level tree")
        map.setChild(root, 1, to: root)
        let problems = try Self.verifyProblems(map.bytes)
        #expect(problems == ["page \(root) (posts, leaf): reached a second time (from page \(root) node 1) although it already belongs to 'posts'; the tree has a cycle or shares a page"])
    }

    @Test func pageSharedByTwoTreesIsReported() throws {
        var map = LMDBPageMap(Self.original)
        let postsLeaf = try #require(map.pages(of: "posts").last?.first)
        let indexRoot = try #require(map.pages(of: "posts#author").first?.first)
        try #require(map.isBranch(indexRoot))
        map.setChild(indexRoot, 0, to: postsLeaf)
        let problems = try Self.verifyProblems(map.bytes)
        #expect(problems == ["page \(postsLeaf) (posts#author, leaf): reached a second time (from page \(indexRoot) node 0) although it already belongs to 'posts'; the tree has a cycle or shares a page"])
    }

    @Test func outOfRangeChildIsReported() throws {
        var map = LMDBPageMap(Self.original)
        let root = try #require(map.pages(of: "posts").first?.first)
        map.setChild(root, 1, to: 999_999)
        let problems = try Self.verifyProblems(map.bytes)
        #expect(problems == ["page \(root) (posts, branch): node 1 points to page 999999, outside the snapshot's pages 2…\(map.lastPage)"])
    }

    @Test func keysOutOfOrderAreReported() throws {
        var map = LMDBPageMap(Self.original)
        let leaf = try #require(map.pages(of: "posts").last?[3])
        let node = map.node(leaf, 3)
        for offset in 0..<map.u16(node + 6) { map.bytes[node + 8 + offset] = 0xFF }
        let problems = try Self.verifyProblems(map.bytes)
        #expect(problems == ["page \(leaf) (posts, leaf): node 4's key is not greater than node 3's; keys must increase"])
    }

    @Test func keyOutsideItsParentsSeparatorsIsReported() throws {
        var map = LMDBPageMap(Self.original)
        let leaf = try #require(map.pages(of: "posts").last?[3])
        // The first key of the fourth leaf becomes smaller than every key: below its separator.
        let node = map.node(leaf, 0)
        for offset in 0..<map.u16(node + 6) { map.bytes[node + 8 + offset] = 0x00 }
        let problems = try Self.verifyProblems(map.bytes)
        #expect(problems == ["page \(leaf) (posts, leaf): node 0's key is smaller than the separator key of its parent page"])
    }

    @Test func leafWhereABranchBelongsIsReported() throws {
        var map = LMDBPageMap(Self.original)
        let leaf = try #require(map.pages(of: "posts#created").last?.last)
        map.setU16(map.pageOffset(leaf) + 10, 0x01)
        let problems = try Self.verifyProblems(map.bytes)
        #expect(problems == ["page \(leaf) (posts#created, leaf): flags 0x1 do not mark a leaf page, which level 2 of 2 must be"])
    }

    @Test func brokenOverflowRunIsReported() throws {
        var map = LMDBPageMap(Self.original)
        // Find a leaf node of posts whose data lives on overflow pages (F_BIGDATA).
        var found: (leaf: Int, index: Int, first: Int)?
        for leaf in map.pages(of: "posts").last ?? [] where found == nil {
            for index in 0..<map.nodeCount(leaf) where map.u16(map.node(leaf, index) + 4) & 0x01 != 0 {
                let node = map.node(leaf, index)
                found = (leaf, index, Int(map.u64(node + 8 + map.u16(node + 6))))
                break
            }
        }
        let (leaf, index, first) = try #require(found)
        _ = (leaf, index)
        let pages = Int(map.u16(map.pageOffset(first) + 12))
        map.setU16(map.pageOffset(first) + 12, 1)
        let problems = try Self.verifyProblems(map.bytes)
        #expect(pages > 1)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("page \(first) (posts, overflow): the run of 1 page(s) is too short for the node's ") == true, "\(problems)")
    }

    @Test func counterMismatchIsReported() throws {
        var map = LMDBPageMap(Self.original)
        let record = try #require(map.recordOffset(of: "posts"))
        let entries = map.u64(record + 32)
        map.setU64(record + 32, entries + 1)
        let problems = try Self.verifyProblems(map.bytes)
        #expect(problems == ["database 'posts': the tree holds \(entries) entries but its record says \(entries + 1)"])
    }

    @Test func freePageThatBelongsToATreeIsReported() throws {
        var map = LMDBPageMap(Self.original)
        let freeRoot = Int(map.u64(map.freeListRecordOffset + 40))
        try #require(UInt64(freeRoot) != UInt64.max, "the free list has records")
        let freeLeaf = try #require(map.pages(fromRoot: freeRoot).last?.first)
        let node = map.node(freeLeaf, 0)
        try #require(map.u16(node + 4) == 0, "the first free-list record is in the page")
        let transaction = map.u64(node + 8)
        let postsLeaf = try #require(map.pages(of: "posts").last?.first)
        let list = node + 8 + map.u16(node + 6)
        try #require(map.u64(list) >= 1)
        map.setU64(list + 8, UInt64(postsLeaf))
        let problems = try Self.verifyProblems(map.bytes)
        #expect(problems == ["free list (pages freed by transaction \(transaction)): page \(postsLeaf) is listed as free but belongs to 'posts'; LMDB would overwrite it"])
    }

    // MARK: Refused at open

    @Test func damagedCatalogIsRefusedAtOpen() throws {
        var map = LMDBPageMap(Self.original)
        let mainRoot = Int(map.u64(map.mainRecordOffset + 40))
        map.setU16(map.pageOffset(mainRoot) + 10, 0x01)
        let error = #expect(throws: StoreError.self) { try Self.verifyProblems(map.bytes) }
        #expect(error?.code == .corrupted)
        #expect(error?.operation == "open")
        #expect(error?.message == "data.mdb is damaged: page \(mainRoot) ((main), leaf): flags 0x1 do not mark a leaf page, which level 1 of 1 must be; LMDB would crash reading it, so it was not read: restore the database from a backup")
    }

    @Test func damagedMetaTreeIsRefusedAtOpen() throws {
        var map = LMDBPageMap(Self.original)
        let metaRoot = try #require(map.pages(of: "_meta").first?.first)
        map.setU16(map.nodePointerSlot(metaRoot, 0), 5_000)
        let error = #expect(throws: StoreError.self) { try Self.verifyProblems(map.bytes) }
        #expect(error?.code == .corrupted)
        #expect(error?.message.hasPrefix("data.mdb is damaged: page \(metaRoot) (_meta, leaf): node 0 offset 5000 lies outside the page") == true, "\(String(describing: error))")
    }

    @Test func damagedMainRootInTheMetaPageIsRefusedAtOpen() throws {
        var map = LMDBPageMap(Self.original)
        map.setU64(map.mainRecordOffset + 40, UInt64(map.lastPage + 7))
        let error = #expect(throws: StoreError.self) { try Self.verifyProblems(map.bytes) }
        #expect(error?.code == .corrupted)
        #expect(error?.message.hasPrefix("data.mdb is damaged: database '(main)': its root page \(map.lastPage + 7) lies outside the snapshot's pages 2…\(map.lastPage)") == true, "\(String(describing: error))")
    }

    /// A live meta page whose transaction id became odd where it was even (or the reverse): LMDB
    /// takes it as the newest, then reads the snapshot's roots from the other meta page.
    @Test func damagedTransactionIdInTheMetaPageIsRefusedAtOpen() throws {
        var map = LMDBPageMap(Self.original)
        let live = map.metaOffset / 4_096
        let transaction = map.transaction
        map.setU64(map.metaOffset + 144, transaction + 1_001)
        let other = 1 - live
        let otherTransaction = map.u64(other * 4_096 + 144)
        let error = #expect(throws: StoreError.self) { try Self.verifyProblems(map.bytes) }
        #expect(error?.code == .corrupted)
        #expect(error?.message.hasPrefix("data.mdb is damaged: meta page \(other): its transaction id is \(otherTransaction), but LMDB reads snapshot \(transaction + 1_001) from it") == true, "\(String(describing: error))")
    }

    @Test func damagedFreeListRefusesAWritableOpenButNotAReadOnlyOne() throws {
        var map = LMDBPageMap(Self.original)
        let freeRoot = Int(map.u64(map.freeListRecordOffset + 40))
        try #require(UInt64(freeRoot) != UInt64.max, "the free list has records")
        map.setU64(map.pageOffset(freeRoot), 77)
        let dir = TemporaryDirectory("page-check-free-list")
        defer { dir.remove() }
        let path = try Self.install(map.bytes, in: dir)
        // Every write transaction reads the free list: a writable open is refused.
        let error = #expect(throws: StoreError.self) { try Store.open(at: path, collections: [Post.self, Member.self]) }
        #expect(error?.code == .corrupted)
        #expect(error?.message.hasPrefix("data.mdb is damaged: page \(freeRoot) ((free list), ") == true, "\(String(describing: error))")
        // A read-only store never reads it: it opens, and verify reports the damage.
        var configuration = StoreConfiguration()
        configuration.readOnly = true
        let store = try Store.open(at: path, configuration: configuration, collections: [Post.self, Member.self])
        defer { store.close() }
        let problems = try store.verify().problems
        #expect(problems.count == 1 && problems[0].hasPrefix("page \(freeRoot) ((free list), ") && problems[0].hasSuffix("its header says it is page 77"), "\(problems)")
    }

    /// A read that fails is the environment's error, not damage: the check throws it with its
    /// offset and errno instead of reporting a short file (a directory named data.mdb opens, and
    /// every `pread` of it fails with EISDIR).
    @Test func aFailedReadThrowsWithItsErrno() throws {
        let dir = TemporaryDirectory("page-check-unreadable")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.sub("data.mdb"), withIntermediateDirectories: false)
        do {
            _ = try PageStructureCheck.run(dataPath: dir.sub("data.mdb"), pageSize: 4096, snapshot: 1, scope: .everything)
            Issue.record("a check whose reads fail returned a report")
        } catch {
            #expect(error.code == .system(EISDIR))
            #expect(error.message.contains("cannot read data.mdb at offset 0"), "\(error.message)")
            #expect(error.message.contains("errno \(EISDIR)"), "\(error.message)")
        }
    }

    // MARK: Concurrent writers

    /// Writers reuse free pages and overwrite the older meta page while verify runs: the check
    /// must judge its own snapshot only, and stay clean.
    @Test func verifyWhileAnotherThreadCommitsIsClean() async throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        try await store.write { tx in for id in 1...600 { try tx.add(DamagedDatabaseTests.post(id)) } }
        let writer = Task.detached {
            for round in 0..<120 {
                try await store.write { tx in
                    for id in (round * 5)..<(round * 5 + 15) { try tx.add(DamagedDatabaseTests.post(1_000 + id), update: .all) }
                    try tx.delete(Post.self, key: Int64(round + 1))
                }
            }
        }
        // Check until the writer's last commit (sequence 121) is visible.
        let checker = Task.detached { () -> (problems: [[String]], snapshots: Set<Int>) in
            var problems: [[String]] = []
            var snapshots: Set<Int> = []
            repeat {
                problems.append(try store.verify().problems)
                let pages = try store.environment.checkPageStructure()
                problems.append(pages.problems)
                snapshots.insert(pages.snapshot)
            } while try store.read({ try $0.lastChangeSequence() }) < 121
            return (problems, snapshots)
        }
        try await writer.value
        let (problems, snapshots) = try await checker.value
        #expect(snapshots.count > 1, "the checks ran while the writer committed")
        #expect(problems.allSatisfy { $0.isEmpty }, "\(problems.filter { !$0.isEmpty })")
        #expect(try store.verify().problems.isEmpty)
    }

    // MARK: Random damage

    /// Seeded random damage over non-meta pages (whole pages, short ranges, header bytes) and
    /// meta fields: `verify()` runs in this process and must report, throw, or pass — never crash.
    @Test func randomDamageIsReportedNeverCrashes() throws {
        // Fewer records than `original`, so that each of the many trials verifies quickly.
        let original = Self.makeSource(posts: 500)
        let map = LMDBPageMap(original)
        let pages = map.lastPage + 1
        let dir = TemporaryDirectory("page-check-random")
        defer { dir.remove() }
        var random = SeededRandom(seed: 20_260_501)
        var refused = 0, reported = 0, passed = 0
        // Whole pages of random bytes over a page LMDB interprets must always be noticed.
        let structural = map.structuralPages()
        let structuralList = structural.sorted()
        var structuralDamaged = 0, structuralNoticed = 0
        let trials = 240
        for trial in 0..<trials {
            var bytes = original
            // Mostly pages LMDB interprets; some free pages and overflow continuation pages too.
            let page = Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 2..<pages, using: &random)
                : structuralList[Int.random(in: 0..<structuralList.count, using: &random)]
            let base = page * 4_096
            let kind = trial % 4
            switch kind {
            case 0:
                if structural.contains(page) { structuralDamaged += 1 }
                for offset in base..<(base + 4_096) { bytes[offset] = UInt8.random(in: 0...255, using: &random) }
            case 1:
                let start = base + Int.random(in: 0..<4_096, using: &random)
                let length = Int.random(in: 1...64, using: &random)
                for offset in start..<min(start + length, base + 4_096) { bytes[offset] = UInt8.random(in: 0...255, using: &random) }
            case 2:
                // Header and node pointers: the bytes LMDB trusts most.
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    bytes[base + Int.random(in: 0..<64, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                }
            default:
                // A field of a meta page (mostly the live one): a database record, the last page
                // or the transaction id.
                let field = [40, 44, 46, 72, 80, 88, 92, 94, 120, 128, 136, 144].randomElement(using: &random)!
                let meta = Int.random(in: 0..<4, using: &random) == 0 ? 4_096 - map.metaOffset : map.metaOffset
                let offset = meta + field
                let value = [UInt64.random(in: 0...UInt64(pages + 4), using: &random), UInt64.random(in: 0...UInt64.max, using: &random), UInt64.max][Int.random(in: 0..<3, using: &random)]
                let width = [44, 46, 92, 94].contains(field) ? 2 : 8
                for index in 0..<width { bytes[offset + index] = UInt8((value >> (8 * UInt64(index))) & 0xFF) }
            }
            let path = try Self.install(bytes, in: dir, name: "trial-\(trial)")
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                let store = try Store.open(at: path, collections: [Post.self, Member.self])
                defer { store.close() }
                let report = try store.verify()
                if report.problems.isEmpty {
                    passed += 1
                } else {
                    reported += 1
                    if kind == 0, structural.contains(page) { structuralNoticed += 1 }
                    #expect(report.problems.allSatisfy { !$0.isEmpty })
                }
            } catch let error as StoreError {
                refused += 1
                if kind == 0, structural.contains(page) { structuralNoticed += 1 }
                #expect(!error.message.isEmpty)
            }
        }
        #expect(refused + reported + passed == trials)
        #expect(structuralDamaged >= 10 && structuralNoticed == structuralDamaged,
                "\(structuralNoticed) of \(structuralDamaged) random pages over tree pages noticed")
        #expect(refused > 0 && reported > 0 && passed > 0, "refused \(refused), reported \(reported), passed \(passed)")
        print("random damage: \(trials) trials, \(refused) refused at open, \(reported) reported by verify, \(passed) clean (unused or payload bytes); \(structural.count) of \(pages) pages are tree pages")
    }
}
