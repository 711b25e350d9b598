/// The fastest way to turn one record type into record JSON and back, chosen once per type:
/// its own object writer and reader (``JSONObjectWritable``, ``JSONObjectReadable``, which
/// `@Record` generates) when it has them, otherwise `Codable` through ``RecordJSONWriter`` and
/// ``RecordJSONReader``.
///
/// Why: a cast to `JSONObjectWritable` per record costs more than writing a small record, so the
/// cast happens here, once; export, import and replication all take their JSON paths from here.
///
/// Rules: the bytes and errors are those of `RecordJSON.encoder()` and `RecordJSON.decoder()`
/// (the writer and reader fall back to them whenever they could differ). The closures are safe
/// to call from several threads at once, each thread with its own writer or reader.
package struct RecordJSONPaths<R: Record>: Sendable {
    /// Decodes a record from JSON; `parsed` is the text's tape when the caller has one whose keys
    /// were checked distinct.
    let decodeParsed: @Sendable (_ json: UnsafeRawBufferPointer, _ parsed: JSONTape?, _ reader: inout RecordJSONReader) throws -> R
    /// Appends a record's JSON object.
    package let append: @Sendable (_ record: R, _ writer: inout RecordJSONWriter, _ out: inout [UInt8]) throws -> Void

    /// The paths of `R`.
    package init() {
        if let writable = R.self as? any (Record & JSONObjectWritable).Type {
            append = Self.objectAppender(writable)
        } else {
            append = { record, writer, out in try writer.append(record, to: &out) }
        }
        if let readable = R.self as? any (Record & JSONObjectReadable).Type {
            decodeParsed = Self.objectReader(readable)
        } else {
            decodeParsed = { json, parsed, reader in try reader.decode(R.self, from: json, parsed: parsed) }
        }
    }

    /// Decodes a record from one JSON text (any whitespace; what `jsonb`'s text form is too).
    package func decode(_ json: UnsafeRawBufferPointer, reader: inout RecordJSONReader) throws -> R {
        try decodeParsed(json, try? JSONTape.parse(json, depth: 1, rejectingAmbiguousKeys: true), &reader)
    }

    // `W` is `R` (the cast in `init` succeeded), so a closure over `W` is a closure over `R`:
    // retyping it once spares a dynamic cast per record.
    private static func objectAppender<W: Record & JSONObjectWritable>(_: W.Type)
        -> @Sendable (_ record: R, _ writer: inout RecordJSONWriter, _ out: inout [UInt8]) throws -> Void {
        let typed: @Sendable (W, inout RecordJSONWriter, inout [UInt8]) throws -> Void = { record, writer, out in
            try writer.appendObject(record, to: &out)
        }
        return unsafeBitCast(typed, to: (@Sendable (R, inout RecordJSONWriter, inout [UInt8]) throws -> Void).self)
    }

    private static func objectReader<W: Record & JSONObjectReadable>(_: W.Type)
        -> @Sendable (_ json: UnsafeRawBufferPointer, _ parsed: JSONTape?, _ reader: inout RecordJSONReader) throws -> R {
        let typed: @Sendable (UnsafeRawBufferPointer, JSONTape?, inout RecordJSONReader) throws -> W = { json, parsed, reader in
            try reader.decodeObject(W.self, from: json, parsed: parsed)
        }
        return unsafeBitCast(typed, to: (@Sendable (UnsafeRawBufferPointer, JSONTape?, inout RecordJSONReader) throws -> R).self)
    }
}
