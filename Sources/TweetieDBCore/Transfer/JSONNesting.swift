import Foundation

/// Refuses JSON nested deeper than Foundation's parsers accept, before they see it.
///
/// Both `JSONSerialization` and `JSONDecoder` stop at 512 levels, but `JSONDecoder` of Swift
/// 6.3's FoundationEssentials traps (crashes the process) instead of throwing when the input ends
/// exactly at its 513th opening bracket (`[` repeated 513 times). Checking the depth first turns
/// every such input into an ordinary, clear rejection.
///
/// ```swift
/// if JSONNesting.exceedsLimit(bytes) { throw TransferError(line: 1, reason: "nested too deeply") }
/// ```
package enum JSONNesting {
    /// The deepest nesting of arrays and objects accepted: Foundation's own limit.
    package static let maximumDepth = 512

    /// Whether arrays and objects in `bytes` nest deeper than ``maximumDepth`` (brackets inside
    /// strings do not count). Linear, allocation-free, and stops at the first level too deep.
    package static func exceedsLimit(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var depth = 0
        var inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x5B, 0x7B:
                depth += 1
                if depth > maximumDepth { return true }
            case 0x5D, 0x7D: depth = max(0, depth - 1)
            default: break
            }
        }
        return false
    }

    /// ``exceedsLimit(_:)-(UnsafeRawBufferPointer)`` for `Data`.
    package static func exceedsLimit(_ data: Data) -> Bool { data.withUnsafeBytes { exceedsLimit($0) } }

    /// ``exceedsLimit(_:)-(UnsafeRawBufferPointer)`` for a byte array.
    package static func exceedsLimit(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { exceedsLimit($0) } }
}
