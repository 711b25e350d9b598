import Foundation
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

/// The check that a command fails fast, with a clear message, when `ulimit -v` (`RLIMIT_AS`)
/// leaves too little address space for it.
///
/// Without it such a command hangs: libdispatch, which runs Swift's async tasks, retries a failed
/// `pthread_create` once a second forever, and an 8 MiB thread stack is the first thing a tight
/// limit refuses. So before any thread is started the room a command needs — the database map
/// plus a few thread stacks and a margin for the heap — is reserved once (`mmap` of inaccessible
/// pages, which counts against the limit like any mapping) and released.
enum AddressSpace {
    /// The threads whose stacks are counted: the main thread, the writer thread, the commit
    /// watcher and a worker of the async executor.
    static let threads = 4
    /// Room for the heap and the libraries' own mappings.
    static let margin = 16 << 20

    /// Throws a ``CLIError`` when the address-space limit cannot hold the database at `path`.
    static func requireRoom(forDatabaseAt path: String) throws {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return }
        // Each further malloc arena reserves 64 MiB: under a limit, threads share one, so that
        // what fits does not depend on which thread allocated first. (M_ARENA_MAX is -8.)
        if let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
            _ = unsafeBitCast(mallopt, to: (@convention(c) (Int32, Int32) -> Int32).self)(-8, 1)
        }
        var status = stat()
        let fileSize = stat(path + "/data.mdb", &status) == 0 ? Int(status.st_size) : 0
        let map = max(StoreConfiguration().mapSize, fileSize)
        var stackLimit = rlimit()
        let stack = getrlimit(Int32(RLIMIT_STACK.rawValue), &stackLimit) == 0 && stackLimit.rlim_cur != rlim_t.max
            ? Int(stackLimit.rlim_cur) : 8 << 20
        let needed = map + threads * stack + margin
        let reserved = mmap(nil, needed, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        if reserved != MAP_FAILED {
            munmap(reserved, needed)
            return
        }
        let mebibytes = { (bytes: Int) in (bytes + (1 << 20) - 1) >> 20 }
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let mapped = (statm.split(separator: " ").first.flatMap { Int($0) } ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
        throw CLIError("the address-space limit (ulimit -v \(limit.rlim_cur / 1024)) is too small: this command needs \(mebibytes(needed)) MiB on top of the \(mebibytes(mapped)) MiB mapped at start (the database map of \(mebibytes(map)) MiB, \(threads) thread stacks of \(mebibytes(stack)) MiB and \(mebibytes(margin)) MiB for the heap); raise it to at least ulimit -v \((mapped + needed) / 1024), or lower the stack size (ulimit -s)")
    }
}
