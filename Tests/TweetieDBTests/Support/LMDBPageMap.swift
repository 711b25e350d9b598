import Foundation

/// A minimal reader of a *clean* `data.mdb` (liblmdb 0.9, 64-bit), for tests that damage chosen
/// pages: finds the live meta page, a database's record and the pages of its tree by level, and
/// reads and writes the little-endian fields of pages in a byte copy of the file.
struct LMDBPageMap {
    var bytes: [UInt8]
    let pageSize: Int

    init(_ bytes: [UInt8], pageSize: Int = 4_096) {
        self.bytes = bytes
        self.pageSize = pageSize
    }

    // MARK: Fields

    func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }

    func u64(_ offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }

    mutating func setU16(_ offset: Int, _ value: Int) {
        bytes[offset] = UInt8(value & 0xFF)
        bytes[offset + 1] = UInt8((value >> 8) & 0xFF)
    }

    mutating func setU64(_ offset: Int, _ value: UInt64) {
        for index in 0..<8 { bytes[offset + index] = UInt8((value >> (8 * UInt64(index))) & 0xFF) }
    }

    // MARK: Meta

    /// The byte offset of the live meta page (the one with the larger transaction id).
    var metaOffset: Int { u64(144) >= u64(pageSize + 144) ? 0 : pageSize }
    var lastPage: Int { Int(u64(metaOffset + 136)) }
    var transaction: UInt64 { u64(metaOffset + 144) }
    /// Byte offset of the free list's `MDB_db` in the live meta page.
    var freeListRecordOffset: Int { metaOffset + 40 }
    /// Byte offset of the main database's `MDB_db` in the live meta page.
    var mainRecordOffset: Int { metaOffset + 88 }

    // MARK: Pages and nodes

    func pageOffset(_ page: Int) -> Int { page * pageSize }
    func flags(_ page: Int) -> Int { u16(pageOffset(page) + 10) }
    func isBranch(_ page: Int) -> Bool { flags(page) & 0x01 != 0 }
    func nodeCount(_ page: Int) -> Int { (u16(pageOffset(page) + 12) - 16) / 2 }
    /// The byte offset in the file of node `index` of `page`.
    func node(_ page: Int, _ index: Int) -> Int { pageOffset(page) + u16(pageOffset(page) + 16 + 2 * index) }
    /// The byte offset in the file of the slot holding node `index`'s offset.
    func nodePointerSlot(_ page: Int, _ index: Int) -> Int { pageOffset(page) + 16 + 2 * index }
    func child(_ page: Int, _ index: Int) -> Int {
        let node = node(page, index)
        return u16(node) | u16(node + 2) << 16 | u16(node + 4) << 32
    }

    mutating func setChild(_ page: Int, _ index: Int, to child: Int) {
        let node = node(page, index)
        setU16(node, child & 0xFFFF)
        setU16(node + 2, (child >> 16) & 0xFFFF)
        setU16(node + 4, (child >> 32) & 0xFFFF)
    }

    func key(_ page: Int, _ index: Int) -> [UInt8] {
        let node = node(page, index)
        return Array(bytes[(node + 8)..<(node + 8 + u16(node + 6))])
    }

    // MARK: Databases

    /// The byte offset in the file of the `MDB_db` of a named database (a node of the main tree).
    func recordOffset(of name: String) -> Int? {
        for page in pages(fromRoot: Int(u64(mainRecordOffset + 40))).last ?? [] {
            for index in 0..<nodeCount(page) where key(page, index) == Array(name.utf8) {
                let node = node(page, index)
                return node + 8 + u16(node + 6)
            }
        }
        return nil
    }

    /// The pages of a database's tree, by level (the root's level first).
    func pages(of name: String) -> [[Int]] {
        guard let record = recordOffset(of: name) else { return [] }
        return pages(fromRoot: Int(u64(record + 40)))
    }

    /// Every branch and leaf page of every tree (free list, main, named databases) and the first
    /// page of every overflow run: the pages whose layout LMDB trusts.
    func structuralPages() -> Set<Int> {
        var result: Set<Int> = []
        var roots = [Int(u64(freeListRecordOffset + 40)), Int(u64(mainRecordOffset + 40))]
        var index = 0
        while index < roots.count {
            let levels = pages(fromRoot: roots[index])
            result.formUnion(levels.joined())
            for leaf in levels.last ?? [] {
                for node in (0..<nodeCount(leaf)).map({ self.node(leaf, $0) }) {
                    let data = node + 8 + u16(node + 6)
                    if u16(node + 4) & 0x01 != 0 { result.insert(Int(u64(data))) }
                    if index == 1, u16(node + 4) & 0x02 != 0 { roots.append(Int(u64(data + 40))) }
                }
            }
            index += 1
        }
        return result
    }

    func pages(fromRoot root: Int) -> [[Int]] {
        guard UInt64(root) != UInt64.max else { return [] }
        var levels = [[root]]
        while let level = levels.last, let first = level.first, isBranch(first) {
            levels.append(level.flatMap { page in (0..<nodeCount(page)).map { child(page, $0) } })
        }
        return levels
    }
}
