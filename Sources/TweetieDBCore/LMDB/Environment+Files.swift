import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What opening does to the files of the directory before LMDB touches them.
///
/// Rules:
/// - A missing, empty or incomplete `data.mdb` (shorter than its two meta pages, with no committed
///   transaction: its creation was interrupted, e.g. by a full disk) is never opened read-only or
///   with ``Configuration/createDatabase`` off: that is refused, and nothing is created. A writable
///   open that may create discards the incomplete file (under LMDB's exclusive lock, so never while
///   another process has the database open) and creates the database anew.
/// - `lock.mdb` gets its disk blocks reserved (`fallocate`) before LMDB maps it: LMDB grows the lock
///   file with `ftruncate`, which leaves it sparse, and then writes it through a shared memory map,
///   and a write to an unbacked page of a full file system kills the process with SIGBUS. A full
///   disk becomes a clear ENOSPC error instead.
/// - A read-only open whose `lock.mdb` cannot be written reads without the lock file
///   (`MDB_NOLOCK`) only when no writer can exist: a read-only file system, an immutable
///   `data.mdb` (`chattr +i`), or a `data.mdb` with no write permission bits at all. Otherwise it
///   is refused: without its slot in the lock file a reader's pages may be reused by a writer.
/// - When root opens a database in a directory owned by another user, the files it creates there
///   (`lock.mdb`, `data.mdb`, `changes.notify`) are given to the directory's owner, so the owner is
///   never locked out of their own database.
extension Environment {
    /// The state of `data.mdb` before opening.
    enum DataFileState: Equatable {
        case absent
        /// Zero bytes.
        case empty
        /// Shorter than its two meta pages and no transaction ever committed.
        case incomplete(size: Int)
        /// Anything else: left to the meta-page checks and LMDB.
        case present
    }

    /// The bytes LMDB 0.9 gives `lock.mdb` for `maxReaders` slots: its `MDB_txninfo` header (two
    /// 64-byte cache lines and the first slot) plus one 64-byte slot per further reader.
    static func lockFileSize(maxReaders: Int) -> Int { 192 + (maxReaders - 1) * 64 }

    /// Reads what `data.mdb` holds, without LMDB.
    static func dataFileState(path: String) throws(StoreError) -> DataFileState {
        let dataPath = path + "/data.mdb"
        let fd = Glibc.open(dataPath, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return .absent }
            throw fileError(code, file: "data.mdb", operation: "open", path: path, purpose: "for reading")
        }
        defer { Glibc.close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .present }
        let size = Int(status.st_size)
        if size == 0 { return .empty }
        // The smallest page LMDB writes is 512 bytes and the largest 64 KiB: a file of two pages
        // or more is a complete creation, whatever its page size.
        guard size < 2 * 65_536 else { return .present }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, size - done, off_t(done)) }
            if got < 0, errno == EINTR { continue }
            if got <= 0 { return .present }
            done += got
        }
        if bytes.allSatisfy({ $0 == 0 }) { return .incomplete(size: size) }
        guard size >= PageStructureCheck.pageHeaderSize + PageStructureCheck.metaSize else { return .present }
        let meta = bytes.withUnsafeBytes { PageStructureCheck.Meta($0) }
        guard meta.pageFlags & PageStructureCheck.PageFlag.meta != 0, meta.magic == PageStructureCheck.magic,
              meta.transaction == 0 else { return .present }
        let pageSize = Int(meta.freeList.pad)
        return pageSize > 0 && size < 2 * pageSize ? .incomplete(size: size) : .present
    }

    /// Refuses a directory whose `data.mdb` is missing, empty or incomplete when the open may not
    /// create one; discards an incomplete one when it may. Called before `mdb_env_open`.
    static func prepareDataFile(path: String, configuration: Configuration) throws(StoreError) {
        let state = try dataFileState(path: path)
        if state == .present { return }
        if configuration.readOnly || !configuration.createDatabase {
            throw missingDatabaseError(state, path: path)
        }
        guard case .incomplete = state else { return }
        // Discard it only under LMDB's exclusive lock: a process that has the environment open (or
        // is creating it) holds a shared or exclusive lock on byte 0 of lock.mdb.
        let lockExisted = access(path + "/lock.mdb", F_OK) == 0
        let lockFD = Glibc.open(path + "/lock.mdb", O_RDWR | O_CREAT | O_CLOEXEC, mode_t(configuration.fileMode))
        guard lockFD >= 0 else { return }
        defer { Glibc.close(lockFD) }
        if !lockExisted { giveToDirectoryOwner(path + "/lock.mdb", directory: path) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 1
        guard fcntl(lockFD, F_SETLK, &lock) == 0 else { return }
        guard case .incomplete = try dataFileState(path: path) else { return }
        _ = truncate(path + "/data.mdb", 0)
    }

    /// The refusal of a directory without a complete database, for an open that may not create one.
    static func missingDatabaseError(_ state: DataFileState, path: String) -> StoreError {
        let what: String
        switch state {
        case .absent:
            return StoreError(.system(ENOENT), operation: "open", path: path,
                                 message: "there is no data.mdb: the directory holds no database (nothing was created)")
        case .empty: what = "data.mdb is empty (0 bytes)"
        case .incomplete(let size): what = "data.mdb is incomplete (\(size) bytes, less than the two meta pages every LMDB file starts with)"
        case .present: what = "data.mdb holds no TweetieDB database yet"
        }
        return StoreError(.notADatabase, operation: "open", path: path,
                             message: "\(what): no database was ever completed here (its creation or a copy into it was interrupted, e.g. by a full disk or a kill); nothing was read or created. Restore it from a backup, or let a command that writes (sync, import) create a new database here")
    }

    /// Reserves the disk blocks of `lock.mdb` (creating it, owned like the directory, when it may),
    /// so LMDB's writes through its map never hit an unbacked page. Returns why the open must go
    /// without the lock file, or `nil` (read-only opens only; see the rules above).
    static func prepareLockFile(path: String, configuration: Configuration) throws(StoreError) -> String? {
        let lockPath = path + "/lock.mdb"
        let existed = access(lockPath, F_OK) == 0
        let fd = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, mode_t(configuration.fileMode))
        guard fd >= 0 else {
            let code = errno
            guard configuration.readOnly else {
                throw fileError(code, file: "lock.mdb", operation: "open", path: path, purpose: "for writing")
            }
            // LMDB itself reads without the lock file on a read-only file system.
            if code == EROFS { return "lock.mdb cannot be written on a read-only file system" }
            guard code == EACCES || code == EPERM else {
                throw fileError(code, file: "lock.mdb", operation: "open", path: path, purpose: "for writing")
            }
            if let reason = dataFileCannotChange(path: path) {
                return "lock.mdb is not writable by this user, and no writer can run because \(reason)"
            }
            var error = fileError(code, file: "lock.mdb", operation: "open", path: path, purpose: "for writing")
            error.message += "; LMDB records every reader in lock.mdb, and data.mdb can still be written by its owner, so reading without the lock file could see pages a concurrent writer is reusing. Ask the owner for write access to lock.mdb (a shared group, or chmod g+w), or read a backup"
            throw error
        }
        defer { Glibc.close(fd) }
        if !existed { giveToDirectoryOwner(lockPath, directory: path) }
        var status = stat()
        let size = fstat(fd, &status) == 0 ? Int(status.st_size) : 0
        let needed = max(size, lockFileSize(maxReaders: configuration.maxReaders))
        // FALLOC_FL_KEEP_SIZE (1): reserve without changing the size, which LMDB reads to learn the
        // number of reader slots other processes use.
        var result: Int32
        repeat { result = reserveBlocks(fd, 1, 0, off_t(needed)) } while result != 0 && errno == EINTR
        if result != 0 {
            let code = errno
            if code == ENOSPC || code == EDQUOT {
                if !existed { unlink(lockPath) }
                throw noSpaceError(path: path, file: "lock.mdb", bytes: needed)
            }
            // EOPNOTSUPP and the like: this file system cannot reserve blocks; carry on as LMDB would.
        }
        return nil
    }

    /// glibc's `fallocate(2)`, which the Glibc module does not export (it is a GNU extension);
    /// `nil` where it cannot be found, and then nothing is reserved.
    private static let fallocateFunction: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate64") ?? dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32).self)
    }()

    /// Calls `fallocate(fd, mode, offset, length)`; fails with `EOPNOTSUPP` where it is missing.
    private static func reserveBlocks(_ fd: Int32, _ mode: Int32, _ offset: off_t, _ length: off_t) -> Int32 {
        guard let function = fallocateFunction else {
            errno = EOPNOTSUPP
            return -1
        }
        return function(fd, mode, offset, length)
    }

    /// Why `data.mdb` cannot be written by anyone, or `nil` when some user may write it.
    static func dataFileCannotChange(path: String) -> String? {
        let dataPath = path + "/data.mdb"
        var fs = statvfs()
        if statvfs(dataPath, &fs) == 0, fs.f_flag & UInt(ST_RDONLY) != 0 { return "it is on a read-only file system" }
        let fd = Glibc.open(dataPath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd >= 0 {
            defer { Glibc.close(fd) }
            var flags: Int32 = 0
            // FS_IOC_GETFLAGS; FS_IMMUTABLE_FL is 0x10.
            if ioctl(fd, 0x8008_6601, &flags) == 0, flags & 0x10 != 0 { return "data.mdb is immutable (chattr +i)" }
        }
        var status = stat()
        if stat(dataPath, &status) == 0, status.st_mode & 0o222 == 0 {
            return "data.mdb has no write permission for anyone (mode 0\(String(status.st_mode & 0o7777, radix: 8)))"
        }
        return nil
    }

    /// When root creates a file in a directory owned by another user, hands the file to that user.
    static func giveToDirectoryOwner(_ filePath: String, directory: String) {
        guard geteuid() == 0 else { return }
        var status = stat()
        guard stat(directory, &status) == 0, status.st_uid != 0 else { return }
        _ = chown(filePath, status.st_uid, status.st_gid)
    }

    /// A failure to open one of the database's files (`file` in the directory `path`), saying
    /// what, where and why: for a permission problem the owner, the mode and this process's uid;
    /// for the open-file limit, the limit.
    static func fileError(_ code: Int32, file: String, operation: String, path: String, purpose: String) -> StoreError {
        let reason = String(cString: strerror(code))
        var message = "cannot open \(file) \(purpose): \(reason) (errno \(code))"
        switch code {
        case EACCES, EPERM:
            var status = stat()
            let target = path + "/" + file
            if stat(target, &status) == 0 || stat(path, &status) == 0 {
                message += " — it is owned by uid \(status.st_uid) with mode 0\(String(status.st_mode & 0o7777, radix: 8)), and this process runs as uid \(geteuid())"
            }
            message = "permission denied: " + message
        case EROFS:
            message = "read-only file system: " + message
        case EMFILE, ENFILE:
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            message += " — the process reached its limit of open files (ulimit -n is \(limit.rlim_cur)); raise it"
        default:
            break
        }
        return StoreError(.system(code), operation: operation, path: path, message: message)
    }

    static func noSpaceError(path: String, file: String, bytes: Int) -> StoreError {
        var fs = statvfs()
        let free = statvfs(path, &fs) == 0 ? "\(Int(fs.f_bavail) * Int(fs.f_frsize)) bytes free" : "free space unknown"
        return StoreError(.system(ENOSPC), operation: "open", path: path,
                             message: "no space left on device: \(file) needs \(bytes) bytes on disk (\(free)); nothing was changed: free some space and retry")
    }
}
