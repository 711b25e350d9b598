/// The primitive `encode` methods shared by the single value and unkeyed containers: each checks
/// the container may take a value (`begin()`), then writes the tagged value into the buffer.
protocol RecordPrimitiveEncoding {
    var buffer: RecordEncodingBuffer { get }
    func begin() throws
}

extension RecordPrimitiveEncoding {
    mutating func encodeNil() throws { try begin(); buffer.bytes.append(RecordFormat.Tag.null) }
    mutating func encode(_ value: Bool) throws { try begin(); RecordValueWriter.writeBool(value, into: &buffer.bytes) }
    mutating func encode(_ value: String) throws { try begin(); RecordValueWriter.writeString(value, into: &buffer.bytes) }
    mutating func encode(_ value: Double) throws { try begin(); RecordValueWriter.writeDouble(value, into: &buffer.bytes) }
    mutating func encode(_ value: Float) throws { try begin(); RecordValueWriter.writeFloat(value, into: &buffer.bytes) }
    mutating func encode(_ value: Int) throws { try begin(); RecordValueWriter.writeSigned(Int64(value), into: &buffer.bytes) }
    mutating func encode(_ value: Int8) throws { try begin(); RecordValueWriter.writeSigned(Int64(value), into: &buffer.bytes) }
    mutating func encode(_ value: Int16) throws { try begin(); RecordValueWriter.writeSigned(Int64(value), into: &buffer.bytes) }
    mutating func encode(_ value: Int32) throws { try begin(); RecordValueWriter.writeSigned(Int64(value), into: &buffer.bytes) }
    mutating func encode(_ value: Int64) throws { try begin(); RecordValueWriter.writeSigned(value, into: &buffer.bytes) }
    mutating func encode(_ value: UInt) throws { try begin(); RecordValueWriter.writeUnsigned(UInt64(value), into: &buffer.bytes) }
    mutating func encode(_ value: UInt8) throws { try begin(); RecordValueWriter.writeUnsigned(UInt64(value), into: &buffer.bytes) }
    mutating func encode(_ value: UInt16) throws { try begin(); RecordValueWriter.writeUnsigned(UInt64(value), into: &buffer.bytes) }
    mutating func encode(_ value: UInt32) throws { try begin(); RecordValueWriter.writeUnsigned(UInt64(value), into: &buffer.bytes) }
    mutating func encode(_ value: UInt64) throws { try begin(); RecordValueWriter.writeUnsigned(value, into: &buffer.bytes) }
}

extension RecordSingleValueEncodingContainer: RecordPrimitiveEncoding {}
extension RecordUnkeyedEncodingContainer: RecordPrimitiveEncoding {}
