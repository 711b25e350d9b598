import Foundation

// `[String]` fields (e.g. Tweet.lists) read natively: the same bytes as the `Codable` form (an
// unkeyed container of string values), without a decoder object, generic metadata lookups or
// per-element containers.

extension RecordField {
    /// Reads an array of strings.
    ///
    /// Chosen over the generic `Decodable` overload for `[String]`; the stored form is the one
    /// `Codable` writes, so both read the same records.
    ///
    /// ```swift
    /// case "lists": lists = try field.decode([String].self)
    /// ```
    public func decode(_ type: [String].Type) throws -> [String] {
        try read { reader, position, limit throws(RecordProblem) in
            let (count, elements) = try reader.unkeyedBody(at: position, limit: limit, type: [String].self)
            var strings: [String] = []
            // Every string takes at least two bytes (tag and length).
            strings.reserveCapacity(min(count, elements.count / 2))
            var cursor = elements.lowerBound
            for _ in 0..<count {
                let (string, end) = try reader.readString(at: cursor, limit: elements.upperBound)
                strings.append(string)
                cursor = end
            }
            guard cursor == elements.upperBound else {
                throw .corrupted("Array of \(count) strings at byte offset \(position) ends at byte offset \(cursor) but its container ends at \(elements.upperBound)")
            }
            return (strings, elements.upperBound)
        }
    }

    /// Reads an array of strings, or `nil` when the stored value is nil.
    ///
    /// ```swift
    /// case "lists": lists = try field.decodeIfPresent([String].self)
    /// ```
    public func decodeIfPresent(_ type: [String].Type) throws -> [String]? {
        if isNil {
            return nil
        }
        return try decode(type)
    }
}
