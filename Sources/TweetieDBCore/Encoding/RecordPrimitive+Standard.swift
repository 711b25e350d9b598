import Foundation

/// The integer conformances share one implementation: signed types use tag `0x04` (zigzag),
/// unsigned ones tag `0x03`; either tag decodes into any integer type the value fits in.
extension RecordPrimitive where Self: FixedWidthInteger {
    /// Appends the integer with the signed or unsigned tag.
    ///
    /// ```swift
    /// Int32._writeRecordValue(-7, into: &bytes)
    /// ```
    public static func _writeRecordValue(_ value: Self, into bytes: inout [UInt8]) {
        if Self.isSigned {
            RecordValueWriter.writeSigned(Int64(truncatingIfNeeded: value), into: &bytes)
        } else {
            RecordValueWriter.writeUnsigned(UInt64(truncatingIfNeeded: value), into: &bytes)
        }
    }

    /// Reads an integer of either tag that fits in `Self`.
    ///
    /// ```swift
    /// let count = try Int32._readRecordValue(from: field)
    /// ```
    @inlinable
    public static func _readRecordValue(from field: RecordField) throws -> Self {
        if let value = field.fastInteger(Self.self) {
            return value
        }
        return try _readRecordValueChecked(from: field)
    }

    @usableFromInline
    static func _readRecordValueChecked(from field: RecordField) throws -> Self {
        try field.read { reader, position, limit throws(RecordProblem) in
            try reader.readInteger(Self.self, at: position, limit: limit)
        }
    }
}

extension Int: RecordPrimitive {}
extension Int8: RecordPrimitive {}
extension Int16: RecordPrimitive {}
extension Int32: RecordPrimitive {}
extension Int64: RecordPrimitive {}
extension UInt: RecordPrimitive {}
extension UInt8: RecordPrimitive {}
extension UInt16: RecordPrimitive {}
extension UInt32: RecordPrimitive {}
extension UInt64: RecordPrimitive {}

extension Bool: RecordPrimitive {
    /// Appends `true` (tag `0x02`) or `false` (tag `0x01`).
    ///
    /// ```swift
    /// Bool._writeRecordValue(true, into: &bytes)
    /// ```
    public static func _writeRecordValue(_ value: Bool, into bytes: inout [UInt8]) {
        RecordValueWriter.writeBool(value, into: &bytes)
    }

    /// Reads a `Bool`.
    ///
    /// ```swift
    /// let flag = try Bool._readRecordValue(from: field)
    /// ```
    @inlinable
    public static func _readRecordValue(from field: RecordField) throws -> Bool {
        if let value = field.fastBool() {
            return value
        }
        return try _readRecordValueChecked(from: field)
    }

    @usableFromInline
    static func _readRecordValueChecked(from field: RecordField) throws -> Bool {
        try field.read { reader, position, limit throws(RecordProblem) in try reader.readBool(at: position, limit: limit) }
    }
}

extension String: RecordPrimitive {
    /// Appends the string's UTF-8 with its length.
    ///
    /// ```swift
    /// String._writeRecordValue("hi", into: &bytes)
    /// ```
    public static func _writeRecordValue(_ value: String, into bytes: inout [UInt8]) {
        RecordValueWriter.writeString(value, into: &bytes)
    }

    /// Reads a string, rejecting invalid UTF-8.
    ///
    /// ```swift
    /// let text = try String._readRecordValue(from: field)
    /// ```
    @inlinable
    public static func _readRecordValue(from field: RecordField) throws -> String {
        if let value = field.fastASCIIString() {
            return value
        }
        return try _readRecordValueChecked(from: field)
    }

    @usableFromInline
    static func _readRecordValueChecked(from field: RecordField) throws -> String {
        try field.read { reader, position, limit throws(RecordProblem) in try reader.readString(at: position, limit: limit) }
    }
}

extension Double: RecordPrimitive {
    /// Appends the 8-byte bit pattern.
    ///
    /// ```swift
    /// Double._writeRecordValue(0.5, into: &bytes)
    /// ```
    public static func _writeRecordValue(_ value: Double, into bytes: inout [UInt8]) {
        RecordValueWriter.writeDouble(value, into: &bytes)
    }

    /// Reads a `Double` (a stored `Float` is widened).
    ///
    /// ```swift
    /// let ratio = try Double._readRecordValue(from: field)
    /// ```
    @inlinable
    public static func _readRecordValue(from field: RecordField) throws -> Double {
        if let bits = field.fastBits64(tag: 0x05) {
            return Double(bitPattern: bits)
        }
        return try _readRecordValueChecked(from: field)
    }

    @usableFromInline
    static func _readRecordValueChecked(from field: RecordField) throws -> Double {
        try field.read { reader, position, limit throws(RecordProblem) in try reader.readDouble(at: position, limit: limit) }
    }
}

extension Float: RecordPrimitive {
    /// Appends the 4-byte bit pattern.
    ///
    /// ```swift
    /// Float._writeRecordValue(0.5, into: &bytes)
    /// ```
    public static func _writeRecordValue(_ value: Float, into bytes: inout [UInt8]) {
        RecordValueWriter.writeFloat(value, into: &bytes)
    }

    /// Reads a `Float` (a stored `Double` only when it is exactly representable).
    ///
    /// ```swift
    /// let ratio = try Float._readRecordValue(from: field)
    /// ```
    public static func _readRecordValue(from field: RecordField) throws -> Float {
        try field.read { reader, position, limit throws(RecordProblem) in try reader.readFloat(at: position, limit: limit) }
    }
}

extension Date: RecordPrimitive {
    /// Appends `timeIntervalSinceReferenceDate`'s bit pattern.
    ///
    /// ```swift
    /// Date._writeRecordValue(Date(), into: &bytes)
    /// ```
    public static func _writeRecordValue(_ value: Date, into bytes: inout [UInt8]) {
        RecordValueWriter.writeDate(value, into: &bytes)
    }

    /// Reads a `Date`.
    ///
    /// ```swift
    /// let created = try Date._readRecordValue(from: field)
    /// ```
    @inlinable
    public static func _readRecordValue(from field: RecordField) throws -> Date {
        if let bits = field.fastBits64(tag: 0x09) {
            return Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
        }
        return try _readRecordValueChecked(from: field)
    }

    @usableFromInline
    static func _readRecordValueChecked(from field: RecordField) throws -> Date {
        try field.read { reader, position, limit throws(RecordProblem) in try reader.readDate(at: position, limit: limit) }
    }
}

extension URL: RecordPrimitive {
    /// Appends the URL's `absoluteString`.
    ///
    /// ```swift
    /// URL._writeRecordValue(URL(string: "https://x.com")!, into: &bytes)
    /// ```
    public static func _writeRecordValue(_ value: URL, into bytes: inout [UInt8]) {
        _ = RecordValueWriter.writePrimitive(value, into: &bytes)
    }

    /// Reads a `URL`.
    ///
    /// ```swift
    /// let link = try URL._readRecordValue(from: field)
    /// ```
    public static func _readRecordValue(from field: RecordField) throws -> URL {
        try field.read { reader, position, limit throws(RecordProblem) in try reader.readURL(at: position, limit: limit) }
    }
}

extension Data: RecordPrimitive {
    /// Appends the bytes with their length.
    ///
    /// ```swift
    /// Data._writeRecordValue(Data([1, 2]), into: &bytes)
    /// ```
    public static func _writeRecordValue(_ value: Data, into bytes: inout [UInt8]) {
        _ = RecordValueWriter.writePrimitive(value, into: &bytes)
    }

    /// Reads `Data` (copied out of the buffer).
    ///
    /// ```swift
    /// let blob = try Data._readRecordValue(from: field)
    /// ```
    public static func _readRecordValue(from field: RecordField) throws -> Data {
        try field.read { reader, position, limit throws(RecordProblem) in try reader.readData(at: position, limit: limit) }
    }
}

extension UUID: RecordPrimitive {
    /// Appends the 16 bytes of `uuid`.
    ///
    /// ```swift
    /// UUID._writeRecordValue(UUID(), into: &bytes)
    /// ```
    public static func _writeRecordValue(_ value: UUID, into bytes: inout [UInt8]) {
        _ = RecordValueWriter.writePrimitive(value, into: &bytes)
    }

    /// Reads a `UUID`.
    ///
    /// ```swift
    /// let token = try UUID._readRecordValue(from: field)
    /// ```
    public static func _readRecordValue(from field: RecordField) throws -> UUID {
        try field.read { reader, position, limit throws(RecordProblem) in try reader.readUUID(at: position, limit: limit) }
    }
}
