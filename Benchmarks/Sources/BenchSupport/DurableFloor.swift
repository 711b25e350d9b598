import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one durable write costs on this disk with no database at all: a 4 KiB `pwrite` followed
/// by `fdatasync`, in a file of the benchmark's directory. A durable commit cannot be cheaper
/// than one of these; LMDB's `.full` commit does two (its pages, then its meta page).
///
/// ```swift
/// let floor = try DurableFloor.measure(.preallocated, writes: 300)
/// print(floor.p50) // nanoseconds
/// ```
public enum DurableFloor {
    /// Where each write lands.
    public enum FileKind: String, Sendable, CaseIterable {
        /// Over blocks already written and synced: `fdatasync` flushes data only, the file's size
        /// and extents never change.
        case preallocated
        /// At the end of the file: every write extends it, so `fdatasync` must also commit the new
        /// size (a journal commit on ext4).
        case growing
    }

    /// The size of one write, LMDB's page size.
    public static let writeSize = 4096

    /// Latencies of `writes` durable 4 KiB writes (after 3 untimed ones) to a fresh file of `kind`
    /// in a new directory under `TemporaryPath`, removed afterwards.
    ///
    /// A preallocated file is written in full and synced first, then written over in a cycle of 64
    /// blocks (the few pages a small commit rewrites).
    ///
    /// ```swift
    /// let growing = try DurableFloor.measure(.growing, writes: 300)
    /// ```
    public static func measure(_ kind: FileKind, writes: Int) throws -> LatencyStats {
        let directory = TemporaryPath.make("floor")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let filePath = directory + "/floor.bin"
        let fd = open(filePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SuiteError("durable floor: cannot create \(filePath): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: writeSize, alignment: 4096)
        defer { block.deallocate() }
        block.initializeMemory(as: UInt8.self, repeating: 0xA5)
        let cycle = 64
        func write(at index: Int) throws {
            let offset = off_t(index * writeSize)
            block.storeBytes(of: UInt64(index), as: UInt64.self)
            guard pwrite(fd, block.baseAddress, writeSize, offset) == writeSize else {
                throw SuiteError("durable floor: pwrite of 4 KiB at \(offset) in \(filePath) failed: \(String(cString: strerror(errno)))")
            }
        }
        func sync() throws {
            guard fdatasync(fd) == 0 else { throw SuiteError("durable floor: fdatasync of \(filePath) failed: \(String(cString: strerror(errno)))") }
        }
        if kind == .preallocated {
            for index in 0..<cycle { try write(at: index) }
            guard fsync(fd) == 0 else { throw SuiteError("durable floor: fsync of \(filePath) failed: \(String(cString: strerror(errno)))") }
        }
        var next = 0
        return try Suites.measure(repetitions: writes, warmup: 3) {
            try write(at: kind == .preallocated ? next % cycle : next)
            try sync()
            next += 1
        }
    }
}
