import Foundation

// Decoding of values that many records repeat (an avatar URL, a display name, the lists a tweet
// belongs to): within one scan, equal values share one storage (see `SharedStringTable`).

extension RecordField {
    /// Decodes a string that many records repeat: within one scan, equal values share one
    /// storage instead of being allocated once per record. Outside a scan it is
    /// `decode(String.self)`, and its errors are the same.
    ///
    /// Use it for values with few distinct values over many records (URLs, names, codes);
    /// for unique text, a lookup that never hits only costs time.
    ///
    /// ```swift
    /// case "imageURL": imageURL = try field.decodeShared(String.self)
    /// ```
    @inlinable
    public func decodeShared(_ type: String.Type) throws -> String {
        guard let sharing, base[value] == 0x07 else {   // RecordFormat.Tag.string
            return try decode(String.self)
        }
        let utf8 = payload
        guard utf8.count >= SharedStringTable.minimumLength, utf8.count <= SharedStringTable.maximumLength else {
            return try decode(String.self)
        }
        // A hit returns a string whose bytes were validated when it was first decoded.
        let bytes = UnsafeRawBufferPointer(utf8)
        // The scan holds the table: borrow it without retaining it per field.
        return try sharing._withUnsafeGuaranteedRef { try $0.string(bytes) { try decode(String.self) } }
    }

    /// Decodes a shared string, or `nil` when the stored value is `nil`.
    ///
    /// ```swift
    /// case "lang": lang = try field.decodeSharedIfPresent(String.self)
    /// ```
    @inlinable
    public func decodeSharedIfPresent(_ type: String.Type) throws -> String? {
        if isNil {
            return nil
        }
        return try decodeShared(type)
    }

    /// Decodes a string array that many records repeat (e.g. the lists a tweet belongs to):
    /// within one scan, equal arrays share one storage.
    ///
    /// ```swift
    /// case "lists": lists = try field.decodeShared([String].self)
    /// ```
    @inlinable
    public func decodeShared(_ type: [String].Type) throws -> [String] {
        // An empty array (tag, length and a zero count) allocates nothing: no lookup.
        guard let sharing, end - value > 3 else {
            return try decode([String].self)
        }
        let bytes = UnsafeRawBufferPointer(start: base + value, count: end - value)
        return try sharing._withUnsafeGuaranteedRef { try $0.list(bytes) { try decode([String].self) } }
    }

    /// Decodes a shared string array, or `nil` when the stored value is `nil`.
    ///
    /// ```swift
    /// case "lists": lists = try field.decodeSharedIfPresent([String].self)
    /// ```
    @inlinable
    public func decodeSharedIfPresent(_ type: [String].Type) throws -> [String]? {
        if isNil {
            return nil
        }
        return try decodeShared(type)
    }
}
