/// One array element that was left out of a ``DecodedBatch``, and why.
public struct DroppedElement: Sendable, Hashable, CustomStringConvertible {
    /// The element's position in the JSON array (0-based).
    ///
    /// ```swift
    /// let position = dropped.index
    /// ```
    public var index: Int
    /// The element's `id`, when it had a readable one.
    ///
    /// ```swift
    /// if let id = dropped.id { print("status \(id) was dropped") }
    /// ```
    public var id: Int64?
    /// Why the element was dropped, e.g. `missing key 'user'`.
    ///
    /// ```swift
    /// logger.warning("\(dropped.reason)")
    /// ```
    public var reason: String

    /// Creates a dropped-element record.
    ///
    /// ```swift
    /// let dropped = DroppedElement(index: 0, id: nil, reason: "not an object")
    /// ```
    public init(index: Int, id: Int64?, reason: String) {
        self.index = index
        self.id = id
        self.reason = reason
    }

    /// A one-line summary: index, id if known, reason.
    ///
    /// ```swift
    /// print(dropped)   // "element 3 (id 42): missing key 'user'"
    /// ```
    public var description: String {
        "element \(index)" + (id.map { " (id \($0))" } ?? "") + ": \(reason)"
    }
}
