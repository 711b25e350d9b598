import Foundation

/// Writes values in TweetieDB's record JSON form — the bytes `RecordJSON.encoder()` writes — several
/// times faster than `JSONEncoder`, appending to a reusable buffer.
///
/// Why: export spends most of its time turning records into JSON, and Foundation's encoder builds
/// a dictionary per object, sorts it, and copies its output into a fresh `Data` per record. This
/// writer encodes into flat arrays it reuses (``JSONScratch``), sorts each sequence of keys once
/// (``JSONKeyOrders``), and appends in place.
///
/// Rules: the output is identical to `RecordJSON.encoder().encode(value)` for every value (a
/// value this writer cannot promise that for is encoded by `JSONEncoder` itself; see
/// ``JSONTextEncoder``), so switching between the two never changes an export. Errors are
/// `JSONEncoder`'s (`EncodingError`) or the value's own. One writer per thread: it is not
/// `Sendable`; a copy gets its own scratch the first time it is used.
///
/// ```swift
/// var writer = RecordJSONWriter()
/// var line: [UInt8] = []
/// try writer.append(note, to: &line)   // {"author":"ann","id":1,…}
/// ```
package struct RecordJSONWriter {
    private var scratch = JSONScratch()
    private lazy var fallback = RecordJSON.encoder()

    /// Creates a writer.
    ///
    /// ```swift
    /// var writer = RecordJSONWriter()
    /// ```
    package init() {}

    /// Appends `value`'s JSON to `bytes`.
    ///
    /// ```swift
    /// try writer.append(tweet, to: &buffer)
    /// ```
    package mutating func append<T: Encodable>(_ value: T, to bytes: inout [UInt8]) throws {
        if !isKnownUniquelyReferenced(&scratch) { scratch = JSONScratch() }
        do {
            try scratch.encode(value, into: &bytes)
        } catch is JSONScratch.Unsupported {
            bytes.append(contentsOf: try fallback.encode(value))
        }
    }

    /// Appends `value`'s JSON to `bytes`, written by the value itself (``JSONObjectWritable``):
    /// the same text as ``append(_:to:)``, which writes it instead when the value's own writing
    /// fails its checks.
    ///
    /// ```swift
    /// try writer.appendObject(tweet, to: &buffer)
    /// ```
    package mutating func appendObject<T: JSONObjectWritable>(_ value: T, to bytes: inout [UInt8]) throws {
        let start = bytes.count
        var object = JSONObjectWriter()
        swap(&object.bytes, &bytes)
        value.writeJSONObject(to: &object)
        object.finish()
        swap(&object.bytes, &bytes)
        if object.failed {
            bytes.removeSubrange(start...)
            try append(value, to: &bytes)
        }
    }

    /// `value`'s JSON.
    ///
    /// ```swift
    /// let json = try writer.encode(tweet)
    /// ```
    package mutating func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try append(value, to: &bytes)
        return bytes
    }
}
