import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Functions of the C library that Swift's Glibc module does not declare (their prototypes need
/// `_GNU_SOURCE` or `_XOPEN_SOURCE`), looked up by name in the running process.
///
/// ```swift
/// let grantpt = CLibrary.function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
/// ```
public enum CLibrary {
    /// The function `name` as `type`, or `nil` when this C library has no such symbol.
    public static func function<T>(_ name: String, as type: T.Type) -> T? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }
}
