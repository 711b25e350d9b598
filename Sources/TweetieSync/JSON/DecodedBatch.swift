/// The result of decoding a JSON array element by element: the good items and the dropped ones.
///
/// Like the book's `unboxMany`, invalid elements do not fail the whole batch; unlike it,
/// each dropped element is reported with its index and the reason.
///
/// ```swift
/// let batch = try TwitterJSON.decodeStatuses(data, source: "lists/statuses.json")
/// print("\(batch.items.count) tweets, \(batch.dropped.count) dropped")
/// ```
public struct DecodedBatch<T> {
    /// The elements that decoded, in their original order.
    ///
    /// ```swift
    /// let tweets = batch.items
    /// ```
    public var items: [T]
    /// The elements that did not decode, in their original order.
    ///
    /// ```swift
    /// for element in batch.dropped { print(element) }
    /// ```
    public var dropped: [DroppedElement]

    /// Creates a batch.
    ///
    /// ```swift
    /// let empty = DecodedBatch<Tweet>(items: [], dropped: [])
    /// ```
    public init(items: [T], dropped: [DroppedElement]) {
        self.items = items
        self.dropped = dropped
    }
}

extension DecodedBatch: Sendable where T: Sendable {}
extension DecodedBatch: Equatable where T: Equatable {}
