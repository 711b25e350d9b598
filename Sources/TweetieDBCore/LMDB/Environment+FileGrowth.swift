#if canImport(Glibc)
import Glibc
#endif

/// Growing `data.mdb` ahead of LMDB, so small durable commits do not extend it.
///
/// Without `MDB_WRITEMAP` (never set here) LMDB grows the file by writing pages past its end; the
/// `fdatasync` of such a commit must then also commit the new size, which on ext4 is a journal
/// commit: about one small commit in seven paid it (docs/benchmark-findings.md, "Writes and
/// commits"). So at the
/// start of a write transaction, under LMDB's writer lock (no other writer, in any process, is
/// writing pages), when less than ``fileGrowthLowWater`` bytes of the file lie past the last
/// committed page, zeros are written past the end — real blocks, not `fallocate`'s unwritten
/// extents, whose first write is a metadata change too — and synced. LMDB then writes its new
/// pages over them: data only.
///
/// The file grows by an eighth of its size (at least 64 KiB, at most 1 MiB, so the one commit that
/// writes and syncs the zeros is not held up for long), so it stays within
/// 1.125× of what LMDB uses plus one step, well inside RELIABILITY.md's file-size bound. A file
/// longer than its last page is what LMDB itself leaves after freeing pages: the open-time
/// truncation check, `verify` and backups read only up to the last committed page. A failure
/// (a full disk) is not an error: the file is cut back and LMDB grows it as it always did.
/// `.noSync` never syncs, so growth costs it nothing: it is left alone.
extension Environment {
    /// Below this much room past the last committed page, a write grows the file first.
    static let fileGrowthLowWater = 32 << 10

    /// How far past LMDB's end a file of `fileSize` bytes is grown, in bytes.
    ///
    /// ```swift
    /// Environment.fileGrowthStep(fileSize: 4 << 20) // 512 KiB
    /// ```
    static func fileGrowthStep(fileSize: Int) -> Int { min(1 << 20, max(64 << 10, fileSize / 8)) }

    /// Zeros for ``growFileAhead()`` to write, 64 KiB at a time.
    nonisolated(unsafe) private static let zeros = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 4096).initializeMemory(as: UInt8.self, repeating: 0)

    /// Grows `data.mdb` with written, synced zeros when LMDB's next pages would extend it. Call it
    /// only inside a write transaction, before its pages are written.
    func growFileAhead() {
        guard configuration.durability != .noSync, !configuration.readOnly else { return }
        let fd = LMDB.dataFileDescriptor(handle)
        guard fd >= 0 else { return }
        let pageSize = LMDB.pageSize(handle)
        let used = (LMDB.info(handle).lastPage + 1) * pageSize
        var status = stat()
        guard fstat(fd, &status) == 0 else { return }
        let size = Int(status.st_size)
        guard size >= used, size - used < Self.fileGrowthLowWater else { return }
        let target = (used + Self.fileGrowthStep(fileSize: size) + pageSize - 1) / pageSize * pageSize
        var offset = size
        while offset < target {
            let count = min(Self.zeros.count, target - offset)
            let written = pwrite(fd, Self.zeros.baseAddress, count, off_t(offset))
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                // A full disk: give the blocks back and let LMDB grow the file itself.
                _ = ftruncate(fd, off_t(size))
                return
            }
            offset += written
        }
        if fdatasync(fd) != 0 { _ = ftruncate(fd, off_t(size)) }
    }
}
