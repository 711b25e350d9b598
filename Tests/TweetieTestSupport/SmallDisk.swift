import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs mounted for one test, with a filler file to make it full.
public struct SmallDisk: Sendable {
    public let path: String

    /// Whether this process may mount a tmpfs (root, and not forbidden by its sandbox): a
    /// 64 KiB probe mounted and unmounted once.
    public static let canMount: Bool = {
        guard geteuid() == 0 else { return false }
        guard let probe = try? SmallDisk(kibibytes: 64, quiet: true) else { return false }
        probe.remove()
        return true
    }()

    /// Mounts a tmpfs of `kibibytes`; `nil`, with a one-line message, where mounting is not possible.
    public init?(kibibytes: Int) throws {
        try self.init(kibibytes: kibibytes, quiet: false)
    }

    private init?(kibibytes: Int, quiet: Bool) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tweetie-disk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(kibibytes)k,mode=0755") == 0 else {
            if !quiet { print("skipped: cannot mount a tmpfs (\(String(cString: strerror(errno))))") }
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
    }

    /// Remounts the disk read-only or read-write; whether that succeeded.
    public func remount(readOnly: Bool) -> Bool {
        mount("tmpfs", path, "tmpfs", UInt(MS_REMOUNT) | (readOnly ? UInt(MS_RDONLY) : 0), nil) == 0
    }

    /// Grows the filler until at most `free` bytes (rounded up to pages) are left.
    public func fill(leaving free: Int) {
        let fd = open(path + "/filler", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x5A, count: 65_536)
        var size = chunk.count
        while size > 0 {
            if chunk.withUnsafeBytes({ write(fd, $0.baseAddress!, size) }) < 0 { size /= 2 }
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return }
        _ = ftruncate(fd, max(0, status.st_size - off_t((free + 4095) / 4096 * 4096)))
    }

    /// Deletes the filler, freeing the disk.
    public func emptyFiller() { unlink(path + "/filler") }

    /// Unmounts the disk and removes its mount point.
    public func remove() {
        _ = umount2(path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(atPath: path)
    }
}
