/// A type the record format stores natively, read and written by ``RecordWriter`` and
/// ``RecordField`` without going through `Codable`.
///
/// TweetieDB provides the conformances: all fixed-width integers, `Bool`, `String`, `Double`,
/// `Float`, `Date`, `URL`, `Data` and `UUID`. The underscored requirements are implementation
/// details; conforming other types is not supported (write them through `Encodable` instead).
///
/// ```swift
/// writer.write(Int64(42), forKey: "id")            // Int64: RecordPrimitive
/// let id = try field.decode(Int64.self)
/// ```
public protocol RecordPrimitive: Codable {
    /// Appends `value` as one type-tagged value (implementation detail).
    ///
    /// ```swift
    /// Int64._writeRecordValue(42, into: &bytes)
    /// ```
    static func _writeRecordValue(_ value: Self, into bytes: inout [UInt8])

    /// Reads the value of `field`, converting and failing exactly like ``RecordDecoder``
    /// (implementation detail).
    ///
    /// ```swift
    /// let id = try Int64._readRecordValue(from: field)
    /// ```
    static func _readRecordValue(from field: RecordField) throws -> Self
}
