import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Over 400 lines, one type: the walk over every page kind of lmdb.h's on-disk format (meta, branch,
// leaf, overflow, the free list) reads best in one place, next to the layout constants it checks.

/// A structural check of the B-tree pages of one snapshot of `data.mdb`, in pure Swift.
///
/// LMDB trusts its page layout: random bytes over a branch or leaf page make it follow garbage
/// offsets and page numbers, and the process crashes (SIGSEGV, or an assertion abort in `mdb.c`).
/// This check reads the file with `pread` — never through the memory map, where a read past the end
/// of the file is SIGBUS — and validates everything LMDB dereferences when it walks a tree: the
/// meta page of the snapshot, every page's number, kind and bounds, every node's offset, key and
/// data extent, key order (within a page and against the separators of the parent pages), overflow
/// runs, that no page is reached twice, the counters of each database, and the free list.
///
/// The caller holds a read transaction on the snapshot (its id is `snapshot`) for the whole check,
/// so LMDB cannot reuse the snapshot's pages meanwhile. Every loop is bounded by the page size, the
/// snapshot's last page or the file size, whatever the damaged bytes say.
///
/// ```swift
/// let outcome = try PageStructureCheck.run(dataPath: env.path + "/data.mdb", pageSize: 4096,
///                                          snapshot: tx.id, scope: .everything)
/// ```
final class PageStructureCheck {
    /// Which trees to walk.
    enum Scope: Equatable {
        /// The meta page, the free list (tree and contents), the main database and every named database.
        case everything
        /// The meta page, the main database (every named database's record is validated, not its
        /// tree), the free list when `freeList`, and the trees of the named `databases`.
        case catalog(freeList: Bool, databases: Set<String>)
    }

    /// The result: a report, or the news that the snapshot's meta page was overwritten by later
    /// commits before it could be read (retry with a new read transaction).
    enum Outcome {
        case checked(PageStructureReport)
        case snapshotOverwritten
    }

    // MARK: LMDB's on-disk format (liblmdb 0.9, 64-bit)

    static let pageHeaderSize = 16
    static let nodeHeaderSize = 8
    static let databaseRecordSize = 48
    static let metaSize = 16 + 8 + 8 + 2 * 48 + 8 + 8
    static let invalidPage = UInt64.max
    static let magic: UInt32 = 0xBEEF_C0DE
    static let dataVersion: UInt32 = 1
    /// LMDB's cursor stack (`CURSOR_STACK`): no tree it can walk is deeper.
    static let maxDepth = 32
    static let problemLimit = 100

    enum PageFlag {
        static let branch: UInt16 = 0x01
        static let leaf: UInt16 = 0x02
        static let overflow: UInt16 = 0x04
        static let meta: UInt16 = 0x08
        static let dirty: UInt16 = 0x10
        static let leaf2: UInt16 = 0x20
        static let subpage: UInt16 = 0x40
    }

    enum NodeFlag {
        static let bigData: UInt16 = 0x01
        static let subData: UInt16 = 0x02
        static let dupData: UInt16 = 0x04
    }

    /// An `MDB_db`: the record of one B-tree.
    struct DatabaseRecord {
        var pad: UInt32
        var flags: UInt16
        var depth: UInt16
        var branchPages: UInt64
        var leafPages: UInt64
        var overflowPages: UInt64
        var entries: UInt64
        var root: UInt64

        init(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
            pad = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            flags = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt16.self)
            depth = bytes.loadUnaligned(fromByteOffset: offset + 6, as: UInt16.self)
            branchPages = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
            leafPages = bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)
            overflowPages = bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
            entries = bytes.loadUnaligned(fromByteOffset: offset + 32, as: UInt64.self)
            root = bytes.loadUnaligned(fromByteOffset: offset + 40, as: UInt64.self)
        }
    }

    /// An `MDB_meta` with its page header.
    struct Meta {
        var pageNumber: UInt64
        var pageFlags: UInt16
        var magic: UInt32
        var version: UInt32
        var freeList: DatabaseRecord
        var main: DatabaseRecord
        var lastPage: UInt64
        var transaction: UInt64

        init(_ bytes: UnsafeRawBufferPointer) {
            pageNumber = bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
            pageFlags = bytes.loadUnaligned(fromByteOffset: 10, as: UInt16.self)
            let base = PageStructureCheck.pageHeaderSize
            magic = bytes.loadUnaligned(fromByteOffset: base, as: UInt32.self)
            version = bytes.loadUnaligned(fromByteOffset: base + 4, as: UInt32.self)
            freeList = DatabaseRecord(bytes, at: base + 24)
            main = DatabaseRecord(bytes, at: base + 24 + 48)
            lastPage = bytes.loadUnaligned(fromByteOffset: base + 120, as: UInt64.self)
            transaction = bytes.loadUnaligned(fromByteOffset: base + 128, as: UInt64.self)
        }
    }

    /// One tree being walked, and what the walk counted.
    private final class Tree {
        enum Kind { case freeList, main, named }
        let owner: UInt32
        let name: String
        let kind: Kind
        let record: DatabaseRecord
        var branchPages: UInt64 = 0
        var leafPages: UInt64 = 0
        var overflowPages: UInt64 = 0
        var entries: UInt64 = 0
        var damaged = false

        init(owner: UInt32, name: String, kind: Kind, record: DatabaseRecord) {
            self.owner = owner
            self.name = name
            self.kind = kind
            self.record = record
        }

        var integerKeys: Bool { kind == .freeList }
    }

    /// A page reference to name in a sentence: "page 57 node 3".
    private struct Origin {
        var page: UInt64
        var node: Int
    }

    private static let noOwner: UInt32 = 0
    private static let metaOwner: UInt32 = 1
    private static let freeOwner: UInt32 = 2

    private let fd: Int32
    private let pageSize: Int
    private let fileSize: Int
    private let snapshot: UInt64
    private let scope: Scope
    private var lastPage: UInt64 = 0
    private var owners: [UInt32] = []
    private var ownerNames = ["", "the meta pages", "the free list's contents"]
    private var levelBuffers: [UnsafeMutableRawBufferPointer] = []
    private let overflowHeader = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 16)
    private var namedDatabases: [(name: String, record: DatabaseRecord)] = []
    private var freeRecords: [(transaction: UInt64, pages: [UInt64])] = []
    private var report = PageStructureReport()
    private var stopped = false
    /// The first read that failed (its offset and `errno`): the check cannot say what the file holds.
    private(set) var readFailure: (offset: Int, code: Int32)?

    // MARK: Running

    /// Checks the snapshot `snapshot` of the file at `dataPath`. Throws only when the file cannot
    /// be opened; everything found in it is a problem in the report.
    static func run(dataPath: String, pageSize: Int, snapshot: Int, scope: Scope) throws(StoreError) -> Outcome {
        let fd = open(dataPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw Environment.fileError(code, file: "data.mdb", operation: "page check",
                                        path: Paths.parent(of: dataPath), purpose: "to check its pages")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            throw StoreError(.system(code), operation: "page check", path: dataPath,
                                message: "cannot read the size of data.mdb: \(String(cString: strerror(code))) (errno \(code))")
        }
        guard pageSize >= 512, pageSize <= 65_536, pageSize % 2 == 0 else {
            throw StoreError(.invalidArgument, operation: "page check", path: dataPath, message: "page size \(pageSize) is not an LMDB page size")
        }
        let check = PageStructureCheck(fd: fd, pageSize: pageSize, fileSize: Int(status.st_size), snapshot: UInt64(bitPattern: Int64(snapshot)), scope: scope)
        let outcome = check.run()
        // A read that failed is not damage in the file: what the check found after it is unknown.
        if let failure = check.readFailure {
            throw StoreError(.system(failure.code), operation: "page check", path: dataPath,
                             message: "cannot read data.mdb at offset \(failure.offset): \(String(cString: strerror(failure.code))) (errno \(failure.code))")
        }
        // The descriptor must still name the file it opened: if other code in this process closed
        // it (a double close elsewhere) and the number was reused, the check read another file.
        var after = stat()
        guard fstat(fd, &after) == 0, after.st_dev == status.st_dev, after.st_ino == status.st_ino else {
            throw StoreError(.system(EBADF), operation: "page check", path: dataPath,
                             message: "the check's descriptor for data.mdb (\(fd)) was closed or replaced during the check by other code in this process; its findings are discarded")
        }
        return outcome
    }

    /// What the meta pages of a closed file say, read the way `mdb_env_open` reads them.
    enum Header: Equatable {
        /// No file, an empty file, or meta pages LMDB itself refuses (`MDB_INVALID`,
        /// `MDB_VERSION_MISMATCH`): opening may proceed and LMDB reports the error.
        case leftToLMDB
        /// The meta page LMDB would use is sound.
        case sound
        /// The meta page LMDB would use has a field LMDB would crash on: a page size that is not a
        /// power of two from 512 to 65536, or a last page beyond any possible file size.
        case damaged(String)
        /// The file ends before the last page the meta page records.
        case truncated(fileSize: Int, end: Int)
    }

    /// Inspects the meta pages before `mdb_env_open` sees them: LMDB takes the page size of the
    /// newer meta page as it is, and divides by it (SIGFPE on zero) and maps with it.
    static func inspectHeader(dataPath: String) -> Header {
        let fd = open(dataPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .leftToLMDB }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size > 0 else { return .leftToLMDB }
        let fileSize = Int(status.st_size)
        let size = pageHeaderSize + metaSize
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        func readMeta(at offset: Int) -> Meta? {
            var done = 0
            while done < size {
                let got = pread(fd, buffer.baseAddress! + done, size - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                if got <= 0 { return nil }
                done += got
            }
            let meta = Meta(UnsafeRawBufferPointer(buffer))
            guard meta.pageFlags & PageFlag.meta != 0, meta.magic == magic, meta.version == dataVersion else { return nil }
            return meta
        }
        func validPageSize(_ size: UInt32) -> Bool { size >= 512 && size <= 65_536 && size & (size - 1) == 0 }
        guard let first = readMeta(at: 0) else { return .leftToLMDB }
        // LMDB reads the second meta page at the first one's page size.
        guard validPageSize(first.freeList.pad) else {
            return .damaged("meta page 0: it records a page size of \(first.freeList.pad) bytes, which is not a power of two from 512 to 65536")
        }
        guard let second = readMeta(at: Int(first.freeList.pad)) else { return .leftToLMDB }
        let (index, meta) = second.transaction > first.transaction ? (1, second) : (0, first)
        guard meta.freeList.pad == first.freeList.pad else {
            return .damaged("meta page \(index): it records a page size of \(meta.freeList.pad) bytes, but meta page 0 records \(first.freeList.pad)")
        }
        let pageSize = Int(meta.freeList.pad)
        guard meta.lastPage < UInt64(Int.max / pageSize) else {
            return .damaged("meta page \(index): its last page \(meta.lastPage) lies beyond any possible file size")
        }
        let end = (Int(meta.lastPage) + 1) * pageSize
        guard end > fileSize else { return .sound }
        // The size was taken before the meta pages were read: a commit by another process in
        // between writes its pages (growing the file) before its meta page, so measure again.
        guard fstat(fd, &status) == 0 else { return .leftToLMDB }
        let sizeNow = Int(status.st_size)
        return end > sizeNow ? .truncated(fileSize: sizeNow, end: end) : .sound
    }

    private init(fd: Int32, pageSize: Int, fileSize: Int, snapshot: UInt64, scope: Scope) {
        self.fd = fd
        self.pageSize = pageSize
        self.fileSize = fileSize
        self.snapshot = snapshot
        self.scope = scope
        report.pageSize = pageSize
        report.snapshot = Int(truncatingIfNeeded: snapshot)
    }

    deinit {
        for buffer in levelBuffers { buffer.deallocate() }
        overflowHeader.deallocate()
    }

    private func run() -> Outcome {
        let meta: Meta
        switch checkMeta() {
        case .overwritten: return .snapshotOverwritten
        case .damaged: return .checked(report)
        case .sound(let sound): meta = sound
        }
        lastPage = meta.lastPage
        report.lastPage = Int(lastPage)
        owners = Array(repeating: Self.noOwner, count: Int(lastPage) + 1)
        owners[0] = Self.metaOwner
        owners[1] = Self.metaOwner
        levelBuffers = (0...Self.maxDepth).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: pageSize, alignment: 16) }

        let walkFreeList: Bool
        switch scope {
        case .everything: walkFreeList = true
        case .catalog(let freeList, _): walkFreeList = freeList
        }
        if walkFreeList {
            walk(Tree(owner: newOwner("the free list"), name: "(free list)", kind: .freeList, record: meta.freeList))
        }
        walk(Tree(owner: newOwner("the main database"), name: "(main)", kind: .main, record: meta.main))
        for (name, record) in namedDatabases where !stopped {
            let tree = Tree(owner: newOwner("'\(name)'"), name: name, kind: .named, record: record)
            switch scope {
            case .everything:
                walk(tree)
            case .catalog(_, let databases):
                if databases.contains(name) { walk(tree) } else { _ = validate(tree) }
            }
        }
        // Free pages must not belong to any tree walked (in `.catalog`, the trees of other named
        // databases are not walked, so an overlap with them goes unnoticed there).
        if walkFreeList, !stopped { checkFreePages() }
        return .checked(report)
    }

    private func newOwner(_ name: String) -> UInt32 {
        ownerNames.append(name)
        return UInt32(ownerNames.count - 1)
    }

    private func problem(_ sentence: String) {
        guard !stopped else { return }
        report.problems.append(sentence)
        if report.problems.count >= Self.problemLimit {
            report.problems.append("the page check stopped after \(Self.problemLimit) problems")
            stopped = true
        }
    }

    // MARK: Reading

    /// Reads `count` bytes at `offset`; returns how many were read (short at the end of the file).
    /// A failed read stops the check and is recorded in ``readFailure``, which `run` throws.
    private func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) -> Int {
        var done = 0
        while done < count {
            let got = pread(fd, buffer + done, count - done, off_t(offset + done))
            if got < 0 {
                let code = errno
                if code == EINTR { continue }
                if readFailure == nil { readFailure = (offset + done, code) }
                stopped = true
                return done
            }
            if got == 0 { break }
            done += got
        }
        return done
    }

    // MARK: Meta pages

    private enum MetaResult {
        /// Neither meta page belongs to the snapshot any more.
        case overwritten
        /// The problems are in the report.
        case damaged
        case sound(Meta)
    }

    /// The meta page of the snapshot, validated.
    private func checkMeta() -> MetaResult {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * pageSize, alignment: 16)
        defer { bytes.deallocate() }
        let got = read(into: bytes.baseAddress!, count: 2 * pageSize, at: 0)
        guard got == 2 * pageSize else {
            problem("data.mdb holds only \(got) bytes, less than its two meta pages (\(2 * pageSize) bytes)")
            return .damaged
        }
        let metas = [0, 1].map { Meta(UnsafeRawBufferPointer(rebasing: bytes[($0 * pageSize)...])) }
        // A read transaction reads the meta page `snapshot % 2` (transaction N writes meta page
        // N % 2). Two later commits overwrite it with a newer id of the same parity: retry. Any
        // other id means the page was damaged, and LMDB reads the snapshot's roots from a page
        // that does not belong to it.
        let index = Int(snapshot & 1)
        let recorded = metas[index].transaction
        if recorded != snapshot {
            if recorded > snapshot, (recorded - snapshot) % 2 == 0 { return .overwritten }
            problem("meta page \(index): its transaction id is \(recorded), but LMDB reads snapshot \(snapshot) from it")
            return .damaged
        }
        var sound = true
        for (number, meta) in metas.enumerated() {
            let where_ = "meta page \(number)"
            if meta.pageNumber != UInt64(number) {
                problem("\(where_): its header says it is page \(meta.pageNumber)")
                sound = sound && number != index
            }
            if meta.pageFlags & PageFlag.meta == 0 {
                problem("\(where_): flags \(hex(meta.pageFlags)) do not mark a meta page")
                sound = false
            }
            if meta.magic != Self.magic {
                problem("\(where_): magic \(hex(meta.magic)) is not LMDB's \(hex(Self.magic))")
                sound = false
            }
            if meta.version != Self.dataVersion {
                problem("\(where_): format version \(meta.version) is not LMDB's \(Self.dataVersion)")
                sound = false
            }
        }
        let meta = metas[index]
        let where_ = "meta page \(index) (snapshot \(snapshot))"
        if meta.freeList.pad != UInt32(pageSize) {
            problem("\(where_): it records a page size of \(meta.freeList.pad) bytes, but the environment uses \(pageSize)")
            sound = false
        }
        let pagesInFile = UInt64(fileSize / pageSize)
        if meta.lastPage < 1 || meta.lastPage >= pagesInFile {
            problem("\(where_): its last page \(meta.lastPage) lies outside data.mdb, which holds \(pagesInFile) pages")
            sound = false
        }
        return sound ? .sound(meta) : .damaged
    }

    // MARK: Trees

    /// Validates a tree's record; returns whether there is a tree to walk.
    private func validate(_ tree: Tree) -> Bool {
        let record = tree.record
        let name = tree.name
        // The free list's record carries LMDB's environment flags besides MDB_INTEGERKEY; the
        // other database flags (0x02 reverse keys, 0x04 sorted duplicates, 0x10, 0x20, 0x40) change
        // how LMDB reads the tree. TweetieDB's own databases use none.
        let unexpected: UInt16 = tree.kind == .freeList ? record.flags & 0x76 : record.flags
        if unexpected != 0 {
            problem("database '\(name)': its record has flags \(hex(record.flags)), which TweetieDB never sets (a damaged record)")
            tree.damaged = true
            return false
        }
        if record.root == Self.invalidPage {
            if record.depth != 0 || record.entries != 0 || record.branchPages != 0 || record.leafPages != 0 || record.overflowPages != 0 {
                problem("database '\(name)': it has no root page but its record counts \(record.entries) entries, depth \(record.depth), \(record.branchPages + record.leafPages + record.overflowPages) pages")
                tree.damaged = true
            }
            return false
        }
        if record.root < 2 || record.root > lastPage {
            problem("database '\(name)': its root page \(record.root) lies outside the snapshot's pages 2…\(lastPage)")
            tree.damaged = true
            return false
        }
        if record.depth < 1 || Int(record.depth) > Self.maxDepth {
            problem("database '\(name)': its depth \(record.depth) is impossible (LMDB walks 1…\(Self.maxDepth) levels)")
            tree.damaged = true
            return false
        }
        return true
    }

    private func walk(_ tree: Tree) {
        guard !stopped else { return }
        report.databases += 1
        guard validate(tree) else { return }
        visit(tree.record.root, level: 1, in: tree, lower: nil, upper: nil, from: nil)
        guard !tree.damaged, !stopped else { return }
        let record = tree.record
        let counters: [(String, UInt64, UInt64)] = [
            ("entries", tree.entries, record.entries),
            ("branch pages", tree.branchPages, record.branchPages),
            ("leaf pages", tree.leafPages, record.leafPages),
            ("overflow pages", tree.overflowPages, record.overflowPages),
        ]
        for (label, found, recorded) in counters where found != recorded {
            problem("database '\(tree.name)': the tree holds \(found) \(label) but its record says \(recorded)")
        }
    }

    private func pageName(_ page: UInt64, _ tree: Tree, _ kind: String) -> String {
        "page \(page) (\(tree.name), \(kind))"
    }

    private func hex<T: BinaryInteger>(_ value: T) -> String {
        "0x" + String(value, radix: 16, uppercase: true)
    }

    /// Visits one branch or leaf page at `level` (the root is level 1) whose keys must lie in
    /// `lower..<upper` (the separators of its parents; `nil` is unbounded).
    private func visit(_ page: UInt64, level: Int, in tree: Tree, lower: [UInt8]?, upper: [UInt8]?, from origin: Origin?) {
        guard !stopped else { return }
        let isLeaf = level == Int(tree.record.depth)
        let kind = isLeaf ? "leaf" : "branch"
        let name = pageName(page, tree, kind)
        let owner = owners[Int(page)]
        if owner != Self.noOwner {
            let reached = origin.map { "from page \($0.page) node \($0.node)" } ?? "as the root"
            problem("\(name): reached a second time (\(reached)) although it already belongs to \(ownerNames[Int(owner)]); the tree has a cycle or shares a page")
            tree.damaged = true
            return
        }
        owners[Int(page)] = tree.owner
        report.pagesChecked += 1
        let buffer = levelBuffers[level]
        let got = read(into: buffer.baseAddress!, count: pageSize, at: Int(page) * pageSize)
        guard got == pageSize else {
            problem("\(name): only \(got) of its \(pageSize) bytes can be read from data.mdb")
            tree.damaged = true
            return
        }
        let bytes = UnsafeRawBufferPointer(buffer)
        let children: [(page: UInt64, key: [UInt8])]
        if let sound = checkPage(bytes, page: page, level: level, isLeaf: isLeaf, in: tree, name: name, lower: lower, upper: upper) {
            children = sound
        } else {
            tree.damaged = true
            return
        }
        if isLeaf { return }
        for (index, child) in children.enumerated() where !stopped {
            let childLower = index == 0 ? lower : child.key
            let childUpper = index + 1 < children.count ? children[index + 1].key : upper
            visit(child.page, level: level + 1, in: tree, lower: childLower, upper: childUpper, from: Origin(page: page, node: index))
        }
    }

    /// Checks one page read into `bytes`; returns its children (empty for a leaf), or `nil` when
    /// the page is damaged (the problem is reported).
    private func checkPage(_ bytes: UnsafeRawBufferPointer, page: UInt64, level: Int, isLeaf: Bool, in tree: Tree,
                           name: String, lower: [UInt8]?, upper: [UInt8]?) -> [(page: UInt64, key: [UInt8])]? {
        let headerPage = bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
        if headerPage != page {
            problem("\(name): its header says it is page \(headerPage)")
            return nil
        }
        let flags = bytes.loadUnaligned(fromByteOffset: 10, as: UInt16.self)
        let expected = isLeaf ? PageFlag.leaf : PageFlag.branch
        if flags & ~PageFlag.dirty != expected {
            problem("\(name): flags \(hex(flags)) do not mark a \(isLeaf ? "leaf" : "branch") page, which level \(level) of \(tree.record.depth) must be")
            return nil
        }
        let lowerBound = Int(bytes.loadUnaligned(fromByteOffset: 12, as: UInt16.self))
        let upperBound = Int(bytes.loadUnaligned(fromByteOffset: 14, as: UInt16.self))
        if lowerBound < Self.pageHeaderSize || upperBound > pageSize || lowerBound > upperBound || (lowerBound - Self.pageHeaderSize) % 2 != 0 {
            problem("\(name): its free-space bounds (lower \(lowerBound), upper \(upperBound)) are impossible in a page of \(pageSize) bytes with a \(Self.pageHeaderSize)-byte header")
            return nil
        }
        let count = (lowerBound - Self.pageHeaderSize) / 2
        let minimum = isLeaf || tree.kind == .freeList ? 1 : 2
        if count < minimum {
            problem("\(name): it holds \(count) node(s); a \(isLeaf ? "leaf" : "branch") page holds at least \(minimum)")
            return nil
        }
        if isLeaf { tree.leafPages += 1 } else { tree.branchPages += 1 }
        var children: [(page: UInt64, key: [UInt8])] = []
        if !isLeaf { children.reserveCapacity(count) }
        var previousKey: UnsafeRawBufferPointer?
        for index in 0..<count {
            guard !stopped else { return nil }
            let offset = Int(bytes.loadUnaligned(fromByteOffset: Self.pageHeaderSize + 2 * index, as: UInt16.self))
            if offset < upperBound {
                problem("\(name): node \(index) offset \(offset) lies below the node area, which starts at \(upperBound)")
                return nil
            }
            if offset + Self.nodeHeaderSize > pageSize {
                problem("\(name): node \(index) offset \(offset) lies outside the page")
                return nil
            }
            if offset % 2 != 0 {
                problem("\(name): node \(index) offset \(offset) is odd; LMDB keeps nodes 2-byte aligned")
                return nil
            }
            let low = UInt64(bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
            let high = UInt64(bytes.loadUnaligned(fromByteOffset: offset + 2, as: UInt16.self))
            let nodeFlags = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt16.self)
            let keySize = Int(bytes.loadUnaligned(fromByteOffset: offset + 6, as: UInt16.self))
            let keyStart = offset + Self.nodeHeaderSize
            if keyStart + keySize > pageSize {
                problem("\(name): node \(index) has a key of \(keySize) bytes at offset \(offset), which runs past the end of the page")
                return nil
            }
            if keySize > LMDB.maxKeySize {
                problem("\(name): node \(index) has a key of \(keySize) bytes; LMDB keys hold at most \(LMDB.maxKeySize)")
                return nil
            }
            let key = UnsafeRawBufferPointer(rebasing: bytes[keyStart..<(keyStart + keySize)])
            // The key of a branch page's first node is ignored by LMDB (it stands for the lower bound).
            if isLeaf || index > 0 {
                guard checkKey(key, index: index, previous: previousKey, isLast: index == count - 1, in: tree, name: name,
                               lower: lower, upper: upper) else { return nil }
                previousKey = key
            }
            if isLeaf {
                let dataSize = Int(low | high << 16)
                guard checkLeafNode(bytes, index: index, flags: nodeFlags, key: key, dataStart: keyStart + keySize,
                                    dataSize: dataSize, page: page, in: tree, name: name) else { return nil }
            } else {
                let child = low | high << 16 | UInt64(nodeFlags) << 32
                if child < 2 || child > lastPage {
                    problem("\(name): node \(index) points to page \(child), outside the snapshot's pages 2…\(lastPage)")
                    return nil
                }
                children.append((child, index == 0 ? [] : Array(key)))
            }
        }
        if isLeaf { tree.entries += UInt64(count) }
        return children
    }

    /// Checks a key's size and order: greater than the previous key of the page, and within the
    /// range the parent pages assign.
    private func checkKey(_ key: UnsafeRawBufferPointer, index: Int, previous: UnsafeRawBufferPointer?, isLast: Bool,
                          in tree: Tree, name: String, lower: [UInt8]?, upper: [UInt8]?) -> Bool {
        if key.isEmpty {
            problem("\(name): node \(index) has an empty key")
            return false
        }
        if tree.integerKeys, key.count != 8 {
            problem("\(name): node \(index) has a key of \(key.count) bytes; the free list's keys are 8-byte transaction ids")
            return false
        }
        if let previous {
            if compare(previous, key, integer: tree.integerKeys) >= 0 {
                problem("\(name): node \(index)'s key is not greater than node \(index - 1)'s; keys must increase")
                return false
            }
        } else if let lower {
            let below = lower.withUnsafeBytes { compare(key, $0, integer: tree.integerKeys) < 0 }
            if below {
                problem("\(name): node \(index)'s key is smaller than the separator key of its parent page")
                return false
            }
        }
        if isLast, let upper {
            let above = upper.withUnsafeBytes { compare(key, $0, integer: tree.integerKeys) >= 0 }
            if above {
                problem("\(name): node \(index)'s key is not smaller than the next separator key of its parent page")
                return false
            }
        }
        return true
    }

    /// LMDB's order: `memcmp` then length for ordinary keys; native 64-bit integers for the free list.
    private func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, integer: Bool) -> Int {
        if integer, a.count == 8, b.count == 8 {
            let x = a.loadUnaligned(as: UInt64.self), y = b.loadUnaligned(as: UInt64.self)
            return x < y ? -1 : (x > y ? 1 : 0)
        }
        let common = min(a.count, b.count)
        if common > 0 {
            let result = memcmp(a.baseAddress!, b.baseAddress!, common)
            if result != 0 { return result < 0 ? -1 : 1 }
        }
        return a.count < b.count ? -1 : (a.count > b.count ? 1 : 0)
    }

    /// Checks a leaf node's flags and data: in the page, in an overflow run, or a named database's record.
    private func checkLeafNode(_ bytes: UnsafeRawBufferPointer, index: Int, flags: UInt16, key: UnsafeRawBufferPointer,
                               dataStart: Int, dataSize: Int, page: UInt64, in tree: Tree, name: String) -> Bool {
        let known = NodeFlag.bigData | NodeFlag.subData | NodeFlag.dupData
        if flags & ~known != 0 {
            problem("\(name): node \(index) has unknown flags \(hex(flags))")
            return false
        }
        if flags & NodeFlag.dupData != 0 {
            problem("\(name): node \(index) is marked as holding sorted duplicates (F_DUPDATA), which TweetieDB never uses")
            return false
        }
        if flags & NodeFlag.subData != 0 {
            if tree.kind != .main || flags & NodeFlag.bigData != 0 {
                problem("\(name): node \(index) is marked as a named database (F_SUBDATA), which only plain nodes of the main database can be")
                return false
            }
            if dataSize != Self.databaseRecordSize || dataStart + dataSize > pageSize {
                problem("\(name): node \(index) is a named database whose record has \(dataSize) bytes instead of \(Self.databaseRecordSize)")
                return false
            }
            let record = DatabaseRecord(bytes, at: dataStart)
            namedDatabases.append((String(decoding: key, as: UTF8.self), record))
            return true
        }
        if flags & NodeFlag.bigData != 0 {
            if dataStart + 8 > pageSize {
                problem("\(name): node \(index)'s overflow page number runs past the end of the page")
                return false
            }
            let first = bytes.loadUnaligned(fromByteOffset: dataStart, as: UInt64.self)
            guard checkOverflowRun(first, dataSize: dataSize, from: Origin(page: page, node: index), in: tree, name: name) else { return false }
            if tree.kind == .freeList {
                let data = UnsafeMutableRawBufferPointer.allocate(byteCount: dataSize, alignment: 16)
                defer { data.deallocate() }
                let got = read(into: data.baseAddress!, count: dataSize, at: Int(first) * pageSize + Self.pageHeaderSize)
                guard got == dataSize else {
                    problem("\(name): node \(index)'s \(dataSize) bytes on overflow page \(first) cannot be read (got \(got))")
                    return false
                }
                return collectFreeRecord(key: key, data: UnsafeRawBufferPointer(data), index: index, name: name)
            }
            return true
        }
        if dataStart + dataSize > pageSize {
            problem("\(name): node \(index) has \(dataSize) bytes of data, which run past the end of the page")
            return false
        }
        if tree.kind == .freeList {
            return collectFreeRecord(key: key, data: UnsafeRawBufferPointer(rebasing: bytes[dataStart..<(dataStart + dataSize)]), index: index, name: name)
        }
        return true
    }

    /// Checks the overflow run a leaf node points to and claims its pages for `tree`.
    private func checkOverflowRun(_ first: UInt64, dataSize: Int, from origin: Origin, in tree: Tree, name: String) -> Bool {
        if first < 2 || first > lastPage {
            problem("\(name): node \(origin.node) points to overflow page \(first), outside the snapshot's pages 2…\(lastPage)")
            return false
        }
        let runName = pageName(first, tree, "overflow")
        let owner = owners[Int(first)]
        if owner != Self.noOwner {
            problem("\(runName): reached a second time (from page \(origin.page) node \(origin.node)) although it already belongs to \(ownerNames[Int(owner)]); two nodes share an overflow run")
            return false
        }
        let got = read(into: overflowHeader.baseAddress!, count: Self.pageHeaderSize, at: Int(first) * pageSize)
        guard got == Self.pageHeaderSize else {
            problem("\(runName): its header cannot be read from data.mdb")
            return false
        }
        let header = UnsafeRawBufferPointer(overflowHeader)
        let headerPage = header.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
        if headerPage != first {
            problem("\(runName): its header says it is page \(headerPage)")
            return false
        }
        let flags = header.loadUnaligned(fromByteOffset: 10, as: UInt16.self)
        if flags & ~PageFlag.dirty != PageFlag.overflow {
            problem("\(runName): flags \(hex(flags)) do not mark an overflow page, which page \(origin.page) node \(origin.node) points to")
            return false
        }
        let pages = UInt64(header.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        let needed = UInt64((Self.pageHeaderSize - 1 + dataSize) / pageSize + 1)
        if pages < needed {
            problem("\(runName): the run of \(pages) page(s) is too short for the node's \(dataSize) bytes of data, which need \(needed)")
            return false
        }
        if pages - 1 > lastPage - first {
            problem("\(runName): the run of \(pages) pages ends past the snapshot's last page \(lastPage)")
            return false
        }
        for page in first..<(first + pages) {
            let owner = owners[Int(page)]
            if owner != Self.noOwner {
                problem("\(runName): its run of \(pages) pages overlaps page \(page), which already belongs to \(ownerNames[Int(owner)])")
                return false
            }
            owners[Int(page)] = tree.owner
        }
        tree.overflowPages += pages
        report.pagesChecked += Int(pages)
        return true
    }

    // MARK: Free list

    /// Parses one free-list record (an `MDB_IDL`: a count, then that many page numbers).
    private func collectFreeRecord(key: UnsafeRawBufferPointer, data: UnsafeRawBufferPointer, index: Int, name: String) -> Bool {
        let transaction = key.loadUnaligned(as: UInt64.self)
        if transaction > snapshot {
            problem("\(name): node \(index) records pages freed by transaction \(transaction), later than the snapshot \(snapshot)")
            return false
        }
        guard data.count >= 8, data.count % 8 == 0 else {
            problem("\(name): node \(index) (pages freed by transaction \(transaction)) has \(data.count) bytes, not a list of 8-byte page numbers")
            return false
        }
        let count = data.loadUnaligned(as: UInt64.self)
        let held = UInt64(data.count / 8 - 1)
        if count != held {
            problem("\(name): node \(index) (pages freed by transaction \(transaction)) says it lists \(count) pages but holds \(held)")
            return false
        }
        var pages: [UInt64] = []
        pages.reserveCapacity(Int(held))
        for slot in 0..<Int(held) {
            pages.append(data.loadUnaligned(fromByteOffset: 8 + 8 * slot, as: UInt64.self))
        }
        freeRecords.append((transaction, pages))
        return true
    }

    /// Every page the free list records must be a real page, listed once, and in no tree.
    private func checkFreePages() {
        for (transaction, pages) in freeRecords {
            for page in pages {
                guard !stopped else { return }
                let where_ = "free list (pages freed by transaction \(transaction))"
                if page < 2 || page > lastPage {
                    problem("\(where_): page \(page) lies outside the snapshot's pages 2…\(lastPage)")
                    continue
                }
                let owner = owners[Int(page)]
                if owner == Self.freeOwner {
                    problem("\(where_): page \(page) is listed as free twice")
                } else if owner != Self.noOwner {
                    problem("\(where_): page \(page) is listed as free but belongs to \(ownerNames[Int(owner)]); LMDB would overwrite it")
                } else {
                    owners[Int(page)] = Self.freeOwner
                    report.freePages += 1
                }
            }
        }
    }
}
