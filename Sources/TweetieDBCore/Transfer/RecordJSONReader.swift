import Foundation

/// Reads values in TweetieDB's record JSON form — what `RecordJSON.decoder()` reads — several
/// times faster than `JSONDecoder`, with `JSONDecoder`'s answers.
///
/// Why: an import spends most of its time turning lines into records.
///
/// Rules: the text is parsed and validated once (``JSONTape``) and the value decoded straight
/// from it (``JSONTapeDecoder``). Whenever that decoding meets anything it does not answer
/// exactly as `JSONDecoder` does — invalid JSON, a missing key, a wrong type, `1e2` for an
/// integer, an escaped surrogate pair — `JSONDecoder` decodes the text instead, and its value or
/// its `DecodingError` is the result. So callers see `JSONDecoder`'s behaviour, errors included,
/// at the fast path's speed for well-formed records. One reader per thread.
///
/// ```swift
/// var reader = RecordJSONReader()
/// let note = try bytes.withUnsafeBytes { try reader.decode(Note.self, from: $0) }
/// ```
package struct RecordJSONReader {
    private lazy var fallback = RecordJSON.decoder()

    /// Creates a reader.
    ///
    /// ```swift
    /// var reader = RecordJSONReader()
    /// ```
    package init() {}

    /// Decodes `type` from one JSON text.
    ///
    /// ```swift
    /// let tweet = try reader.decode(Tweet.self, from: lineBytes)
    /// ```
    package mutating func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        try decode(T.self, from: bytes, parsed: nil)
    }

    /// ``decode(_:from:)-(_,UnsafeRawBufferPointer)`` with the text's tape, when the caller has
    /// parsed it already (`nil`: parse it here).
    mutating func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer, parsed: JSONTape?) throws -> T {
        if let tape = parsed ?? (try? JSONTape.parse(bytes)) {
            let state = JSONTapeDecoder.State(tape: tape)
            let value = try? JSONTapeDecoder(state: state, index: 0).decode(T.self, at: 0, key: nil)
            if let value, !state.failed { return value }
        }
        return try fallback.decode(T.self, from: Data(bytes))
    }

    /// ``decode(_:from:parsed:)`` for a type that reads its own object (``JSONObjectReadable``):
    /// from the tape when the caller parsed it with its keys distinct and the type takes it,
    /// otherwise (and for any other text) the way ``decode(_:from:parsed:)`` does.
    mutating func decodeObject<T: JSONObjectReadable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer, parsed: JSONTape?) throws -> T {
        if let tape = parsed, tape.rejectsAmbiguousKeys, tape.entries.first?.kind == .object {
            let value: T? = tape.entries.withUnsafeBufferPointer { entries in
                var json = JSONObjectReader(view: JSONTapeView(entries: entries, bytes: tape.bytes))
                let value = T(jsonObject: &json)
                return json.failed ? nil : value
            }
            if let value { return value }
        }
        return try decode(T.self, from: bytes, parsed: parsed)
    }

    /// ``decode(_:from:)-(_,UnsafeRawBufferPointer)`` for bytes in an array.
    ///
    /// ```swift
    /// let tweet = try reader.decode(Tweet.self, from: Array(#"{"id":1,…}"#.utf8))
    /// ```
    package mutating func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { try decode(T.self, from: $0) }
    }
}
