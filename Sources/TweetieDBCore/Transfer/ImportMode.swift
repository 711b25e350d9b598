import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How ``Store/importNDJSON(from:mode:maxLineBytes:progress:)`` treats records already stored.
///
/// ```swift
/// try store.importNDJSON(from: fd, mode: .replace)
/// ```
public enum ImportMode: String, Sendable, CaseIterable {
    /// Keep stored records; imported ones are added or overwrite those with the same key.
    case merge
    /// Remove every record of every registered collection first; the result is exactly the file.
    case replace
}
