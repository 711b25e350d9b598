/// A record type with hand-written, Codable-free encoding and decoding: the fast path of
/// ``RecordEncoder`` and ``RecordDecoder``.
///
/// The bytes are exactly those the `Codable` path writes for a type whose `encode(to:)`
/// encodes the same fields, under the same keys, in the same order (synthesized `Codable`
/// writes the stored properties in declaration order and omits `nil` optionals). So records
/// written by either path decode by either path, with the same schema-evolution rules:
/// unknown fields are skipped, missing optional fields stay `nil`, a missing required field
/// throws `DecodingError.keyNotFound` (use ``RecordFieldReader/require(_:forKey:)-(_,StaticString)``).
///
/// ``RecordEncoder/encode(_:)`` and ``RecordDecoder/decode(_:from:)-(_,UnsafeRawBufferPointer)``
/// use the fast path automatically for every `Codable` type that also adopts this protocol,
/// also when called generically (`R: Record`).
///
/// A field that many records repeat (a URL, a name, a list of list names) can be read with
/// ``RecordField/decodeShared(_:)-(String.Type)``: within one scan, equal values then share one
/// storage instead of one allocation per record.
///
/// ```swift
/// extension Tweet: RecordCodable {
///     func encode(to writer: inout RecordWriter) {
///         writer.write(id, forKey: "id")
///         writer.write(text, forKey: "text")
///         writer.write(inReplyToId, forKey: "inReplyToId")   // nil: omitted
///     }
///
///     init(from reader: inout RecordFieldReader) throws {
///         var id: Int64?, text: String?, inReplyToId: Int64?
///         while let field = try reader.nextField() {
///             switch field.name {
///             case "id": id = try field.decode(Int64.self)
///             case "text": text = try field.decode(String.self)
///             case "inReplyToId": inReplyToId = try field.decodeIfPresent(Int64.self)
///             default: break   // a field this version does not know
///             }
///         }
///         self.init(id: try reader.require(id, forKey: "id"),
///                   text: try reader.require(text, forKey: "text"),
///                   inReplyToId: inReplyToId)
///     }
/// }
/// ```
public protocol RecordCodable {
    /// Writes the fields of the record's top-level keyed container, in `Codable` order.
    ///
    /// ```swift
    /// func encode(to writer: inout RecordWriter) {
    ///     writer.write(id, forKey: "id")
    /// }
    /// ```
    func encode(to writer: inout RecordWriter)

    /// Reads the record from the fields of its top-level keyed container.
    ///
    /// ```swift
    /// init(from reader: inout RecordFieldReader) throws {
    ///     var id: Int64?
    ///     while let field = try reader.nextField() {
    ///         if field.name == "id" { id = try field.decode(Int64.self) }
    ///     }
    ///     self.id = try reader.require(id, forKey: "id")
    /// }
    /// ```
    init(from reader: inout RecordFieldReader) throws
}
