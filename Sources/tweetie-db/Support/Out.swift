import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes to stdout without Foundation's buffering surprises.
///
/// Rules: every command writes its standard output through `Out`, and every write is checked. A
/// reader that went away (`EPIPE`, as with `| head`) ends the process quietly with status 0; any
/// other failure (`/dev/full`, a full disk, an I/O error) ends it with a message on stderr and
/// status 1, so that a script never mistakes a lost output for a successful command.
/// ``checkFinalFlush()`` covers what went through the C library's buffer instead (help text).
enum Out {
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    static func write(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            if n <= 0 {
                let code = n < 0 ? errno : EIO
                if code == EINTR { continue }
                if code == EPIPE { Glibc.exit(0) }  // the reader went away (e.g. `| head`)
                failed(code)
            }
            offset += n
        }
    }

    static func line(_ text: String = "") { write(text + "\n") }

    static func error(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

    /// Flushes the C library's standard output buffer at exit and fails the process, with a
    /// message, when that flush failed; a no-op when nothing is
    /// buffered. Installed once, first thing in `main`.
    static func checkFinalFlush() {
        atexit {
            if fflush(nil) != 0 {
                Out.failed(errno == 0 ? EIO : errno, exit: _exit)
            }
        }
    }

    private static func failed(_ code: Int32, exit: (Int32) -> Never = Glibc.exit) -> Never {
        let message = "Error: cannot write to standard output: \(String(cString: strerror(code)))\n"
        var bytes = Array(message.utf8)
        _ = Glibc.write(STDERR_FILENO, &bytes, bytes.count)
        exit(1)
    }
}
