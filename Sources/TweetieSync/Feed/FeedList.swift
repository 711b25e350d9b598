/// The rows of a ``FeedSection`` and the sections of a ``SectionedUpdate``: a random-access list
/// whose elements are either stored or made when they are read.
///
/// A view model's delivery does not build a row for every record of a million-row timeline: its
/// sections read the observation's results (persistent trees, shared between deliveries), and a
/// row is made from its record when it is read — `list[i]` in O(log n), iteration in O(1) per
/// element after an O(log n) start. What a renderer does not read costs nothing; what a change
/// message carries (its inserted, moved and modified rows) is read at their index paths only.
///
/// A list made on read makes a row again each time it is read, from the same record and the
/// delivery's `now`: equal each time. Keep the rows you read if you need them twice.
///
/// It behaves as an array would: equal to an array literal with the same elements, hashed and
/// encoded as the array of its elements (the feed's JSON does not change), decoded into a stored
/// list. It can be changed as an array can (`append`, `remove(at:)`, `list[i] = row`): a change
/// makes every element of a made-on-read list and stores them first.
///
/// ```swift
/// let section = update.sections[0]
/// print(section.rows.count)                 // O(1)
/// let newest = section.rows.first           // one row made
/// let visible = section.rows.prefix(20)     // twenty rows made, not the section
/// let copy = Array(section.rows)            // every row made, once
/// ```
public struct FeedList<Element: Sendable>: RandomAccessCollection, Sendable {
    /// The elements of a stored list, or how a made-on-read list makes them.
    private enum Storage: Sendable {
        case stored([Element])
        case made(count: Int, element: @Sendable (Int) -> Element, elements: @Sendable (Range<Int>) -> [Element])
    }

    private var storage: Storage

    /// A stored list of `elements`.
    ///
    /// ```swift
    /// let rows = FeedList([row1, row2])
    /// ```
    public init(_ elements: some Sequence<Element>) {
        storage = .stored(Array(elements))
    }

    /// An empty list.
    ///
    /// ```swift
    /// let rows = FeedList<TimelineRow>()
    /// ```
    public init() {
        storage = .stored([])
    }

    /// A list of `count` elements made when read: element `i` is `element(i)`.
    ///
    /// - Precondition: `count >= 0`; `element` gives the same element for the same index each time.
    ///
    /// ```swift
    /// let squares = FeedList(count: 1_000_000) { $0 * $0 }   // nothing is computed yet
    /// print(squares[999])                                    // 998001
    /// ```
    public init(count: Int, element: @escaping @Sendable (Int) -> Element) {
        self.init(count: count, element: element, elements: { range in range.map(element) })
    }

    /// A list of `count` elements made when read, with a faster way to make a run of them
    /// (`elements(range)` must equal `range.map(element)`): iteration uses it in chunks.
    init(count: Int, element: @escaping @Sendable (Int) -> Element, elements: @escaping @Sendable (Range<Int>) -> [Element]) {
        precondition(count >= 0, "FeedList: count \(count) is negative")
        storage = .made(count: count, element: element, elements: elements)
    }

    /// `0`.
    public var startIndex: Int { 0 }

    /// The number of elements.
    public var endIndex: Int {
        switch storage {
        case .stored(let elements): elements.count
        case .made(let count, _, _): count
        }
    }

    /// The element at `position`, O(1) for a stored list, the cost of making one element otherwise.
    /// Setting it stores the list first.
    ///
    /// - Precondition: `position` is in `0..<count`.
    public subscript(position: Int) -> Element {
        get { element(at: position) }
        set {
            precondition(position >= 0 && position < count, "FeedList: index \(position) is out of range 0..<\(count)")
            updateStored { $0[position] = newValue }
        }
    }

    /// Runs `body` on the stored elements, storing a made-on-read list's elements first.
    private mutating func updateStored(_ body: (inout [Element]) -> Void) {
        var elements: [Element]
        switch storage {
        case .stored(let stored): elements = stored
        case .made: elements = Array(self)
        }
        storage = .stored([])   // so that `elements` is the only reference and changes in place
        body(&elements)
        storage = .stored(elements)
    }

    private func element(at position: Int) -> Element {
        switch storage {
        case .stored(let elements):
            precondition(position >= 0 && position < elements.count, "FeedList: index \(position) is out of range 0..<\(elements.count)")
            return elements[position]
        case .made(let count, let element, _):
            precondition(position >= 0 && position < count, "FeedList: index \(position) is out of range 0..<\(count)")
            return element(position)
        }
    }

    /// Iterates the elements in order; a made-on-read list makes them a chunk at a time.
    public func makeIterator() -> Iterator {
        Iterator(list: self, range: 0..<count)
    }

    /// Iterates a run of a ``FeedList``'s elements.
    public struct Iterator: IteratorProtocol {
        private let list: FeedList
        private var position: Int
        private let end: Int
        private var chunk: [Element] = []
        private var chunkStart = 0

        init(list: FeedList, range: Range<Int>) {
            self.list = list
            position = range.lowerBound
            end = range.upperBound
        }

        /// The next element, or `nil` after the last.
        public mutating func next() -> Element? {
            guard position < end else { return nil }
            defer { position += 1 }
            switch list.storage {
            case .stored(let elements):
                return elements[position]
            case .made(_, _, let elements):
                if position - chunkStart >= chunk.count {
                    // Chunks grow so that a short read (`first`, `prefix(20)`) makes few elements and
                    // a long one amortizes the O(log n) start of each chunk.
                    let size = Swift.min(end - position, Swift.max(16, Swift.min(4096, chunk.count * 2)))
                    chunkStart = position
                    chunk = elements(position..<(position + size))
                }
                return chunk[position - chunkStart]
            }
        }
    }
}

extension FeedList: MutableCollection, RangeReplaceableCollection {
    /// Replaces the elements `subrange` with `newElements`, storing the list first.
    public mutating func replaceSubrange<C: Collection<Element>>(_ subrange: Range<Int>, with newElements: C) {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= count, "FeedList: range \(subrange) is out of range 0..<\(count)")
        updateStored { $0.replaceSubrange(subrange, with: newElements) }
    }

    /// Reserves room for `n` elements in a stored list.
    public mutating func reserveCapacity(_ n: Int) {
        updateStored { $0.reserveCapacity(n) }
    }
}

extension FeedList: ExpressibleByArrayLiteral {
    /// A stored list of the literal's elements.
    ///
    /// ```swift
    /// let rows: FeedList<TimelineRow> = []
    /// ```
    public init(arrayLiteral elements: Element...) {
        storage = .stored(elements)
    }
}

extension FeedList: Equatable where Element: Equatable {
    /// Whether both lists have the same elements in the same order (however each is held).
    public static func == (lhs: FeedList, rhs: FeedList) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension FeedList: Hashable where Element: Hashable {
    /// Hashes the count and the elements in order, as an array does.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}

extension FeedList: Encodable where Element: Encodable {
    /// Encodes the elements as an array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension FeedList: Decodable where Element: Decodable {
    /// Decodes an array into a stored list.
    public init(from decoder: any Decoder) throws {
        storage = .stored(try [Element](from: decoder))
    }
}

extension FeedList: CustomStringConvertible, CustomDebugStringConvertible {
    /// The elements as an array prints them.
    public var description: String { Array(self).description }
    /// The elements as an array debug-prints them.
    public var debugDescription: String { Array(self).debugDescription }
}
