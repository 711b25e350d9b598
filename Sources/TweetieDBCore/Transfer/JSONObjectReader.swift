// JSONObjectReadable is declared beside the reader it is written against: a conformance is a
// list of that reader's calls, and the rules for both (nil leaves it to init(from:)) are one.
import Foundation

/// A value that reads itself from a parsed JSON object — for the objects `init(from:)` decodes
/// without a question `JSONDecoder` might answer differently — without a `Decoder` and its
/// containers.
///
/// `@Record` generates this conformance when the struct's JSON form is its own (no `CodingKeys`
/// or `init(from:)` of its own) and every stored property is a `String`, `Bool`, `Double`,
/// `Date`, a standard integer or `[String]`, or an optional of one. Write one by hand only for
/// a type whose `init(from:)` is hand-written too, and then follow the rules below.
///
/// Why: an import turns every line into a record, and going through `init(from:)` costs a boxed
/// container, a dynamic call and a key search per member, and (for ids with string twins) a few
/// strings built per record, for members a type with a fixed set of them can read by name.
///
/// Rules: return `nil` whenever anything is not exactly what `init(from:)` would accept without
/// a doubt — a required member missing, a wrong type (``JSONObjectReader`` marks that as
/// `failed`), twins that disagree, a number `init(from:)` might read differently. The record is
/// then decoded through `init(from:)`, and `JSONDecoder` decides as before, errors included: a
/// mistake here costs speed, never a different record or a different error, as long as every
/// value it does return equals `init(from:)`'s. Read the members in the order of their keys'
/// bytes: the reader tries the member after the last one found first. Only objects whose keys are
/// all distinct (the export's own lines) are read this way. A test should compare the two paths
/// (`JSONObjectReadingTests` does for `Tweet`, `User` and a `@Record` type).
///
/// ```swift
/// extension Note: JSONObjectReadable {
///     init?(jsonObject json: inout JSONObjectReader) {
///         let author: String? = json.value("author")
///         let id: Int64? = json.value("id")
///         guard !json.failed, let author, let id else { return nil }
///         self.init(id: id, author: author)
///     }
/// }
/// ```
public protocol JSONObjectReadable: Decodable {
    /// The value the object holds, or `nil` to leave it to `init(from:)`.
    init?(jsonObject json: inout JSONObjectReader)
}

/// Reads the members of one parsed JSON object (a `JSONTape` whose keys are distinct) by
/// name, each value the way `RecordJSON.decoder()` reads it, for ``JSONObjectReadable``.
///
/// Each accessor returns `nil` for a member that is absent (and, the `IfPresent` ones, `null`);
/// a member of another type, or a value `JSONDecoder` might read differently, returns `nil` and
/// sets ``failed``. `value(_:)` and `valueIfPresent(_:)` read the type the result is
/// declared as; a type they have no reading for (anything `Decodable` but their overloads')
/// sets ``failed``, so that the record is decoded through `init(from:)` instead.
///
/// ```swift
/// let text: String? = json.value("text")
/// let lang: String? = json.valueIfPresent("lang")
/// if json.failed { … }
/// ```
public struct JSONObjectReader {
    private let view: JSONTapeView
    /// The tape index of the key found last (0: none yet).
    private var near = 0
    /// Whether a member had a value this reader will not answer for: the object is then left to
    /// `init(from:)`.
    ///
    /// ```swift
    /// guard !json.failed, let id else { return nil }
    /// ```
    public private(set) var failed = false

    /// A reader of the object at the root of `view`, whose keys must be distinct.
    init(view: JSONTapeView) {
        self.view = view
    }

    /// The tape index of the value of `key`, or nil when it is absent.
    private mutating func find(_ key: StaticString) -> Int? {
        let found = key.withUTF8Buffer { view.member(of: 0, named: $0, near: near, keysDistinct: true) }
        if let found { near = found - 1 }
        return found
    }

    /// The index of `key`'s value unless it is absent or `null`.
    private mutating func present(_ key: StaticString) -> Int? {
        guard let index = find(key), view.entries[index].kind != .null else { return nil }
        return index
    }

    package mutating func string(_ key: StaticString) -> String? {
        guard let index = find(key) else { return nil }
        return string(at: index)
    }

    package mutating func stringIfPresent(_ key: StaticString) -> String? {
        guard let index = present(key) else { return nil }
        return string(at: index)
    }

    private mutating func string(at index: Int) -> String? {
        guard let value = try? view.string(index) else { failed = true; return nil }
        return value
    }

    /// An integer written as plain digits (`12`, `-7`) within `T`'s range.
    package mutating func integer<T: FixedWidthInteger>(_ key: StaticString, as type: T.Type) -> T? {
        guard let index = find(key) else { return nil }
        return integer(at: index, as: T.self)
    }

    package mutating func integerIfPresent<T: FixedWidthInteger>(_ key: StaticString, as type: T.Type) -> T? {
        guard let index = present(key) else { return nil }
        return integer(at: index, as: T.self)
    }

    /// ``integer(_:as:)`` for `Int`, compiled here for it: a record type in another module calls
    /// the generic one unspecialized, which looks up `Optional<T>`'s metadata on every call (5 % of
    /// an import's decoding, by perf, before these two).
    package mutating func integer(_ key: StaticString, as type: Int.Type) -> Int? {
        guard let index = find(key) else { return nil }
        return integer(at: index, as: Int.self)
    }

    /// ``integerIfPresent(_:as:)`` for `Int`; see ``integer(_:as:)-(_,Int.Type)``.
    package mutating func integerIfPresent(_ key: StaticString, as type: Int.Type) -> Int? {
        guard let index = present(key) else { return nil }
        return integer(at: index, as: Int.self)
    }

    private mutating func integer<T: FixedWidthInteger>(at index: Int, as type: T.Type) -> T? {
        guard let value = try? view.integer(index, as: T.self) else { failed = true; return nil }
        return value
    }

    package mutating func bool(_ key: StaticString) -> Bool? {
        guard let index = find(key) else { return nil }
        return bool(at: index)
    }

    /// A date as `RecordJSON.decoder()` reads it: ISO 8601 text.
    package mutating func date(_ key: StaticString) -> Date? {
        guard let index = find(key) else { return nil }
        return date(at: index)
    }

    /// An array of strings, unless absent or `null`.
    package mutating func stringsIfPresent(_ key: StaticString) -> [String]? {
        guard let index = present(key) else { return nil }
        return strings(at: index)
    }

    /// A double as `JSONDecoder` reads it: a finite number (a text that would round a non-zero
    /// value to zero fails).
    package mutating func double(_ key: StaticString) -> Double? {
        guard let index = find(key) else { return nil }
        return double(at: index)
    }

    private mutating func double(at index: Int) -> Double? {
        guard let value = try? view.double(index) else { failed = true; return nil }
        return value
    }

    private mutating func bool(at index: Int) -> Bool? {
        switch view.entries[index].kind {
        case .true: return true
        case .false: return false
        default: failed = true; return nil
        }
    }

    private mutating func date(at index: Int) -> Date? {
        guard let date = view.date(index) else { failed = true; return nil }
        return date
    }

    private mutating func strings(at index: Int) -> [String]? {
        guard view.entries[index].kind == .array else { failed = true; return nil }
        var strings: [String] = []
        let end = Int(view.entries[index].next)
        var element = index + 1
        while element < end {
            guard let string = string(at: element) else { return nil }
            strings.append(string)
            element = Int(view.entries[element].next)
        }
        return strings
    }

    // MARK: Typed by the result (what @Record generates)

    /// The string under `key`; `nil` when absent (a `null` fails).
    ///
    /// ```swift
    /// let author: String? = json.value("author")
    /// ```
    public mutating func value(_ key: StaticString) -> String? { string(key) }

    /// The integer under `key`, written as plain digits within `Int64`'s range.
    ///
    /// ```swift
    /// let id: Int64? = json.value("id")
    /// ```
    public mutating func value(_ key: StaticString) -> Int64? { integer(key, as: Int64.self) }

    /// The integer under `key`, written as plain digits within `Int`'s range.
    ///
    /// ```swift
    /// let likes: Int? = json.value("likes")
    /// ```
    public mutating func value(_ key: StaticString) -> Int? { integer(key, as: Int.self) }

    /// The integer under `key`, written as plain digits within `T`'s range.
    ///
    /// ```swift
    /// let level: UInt8? = json.value("level")
    /// ```
    public mutating func value<T: FixedWidthInteger & Decodable>(_ key: StaticString) -> T? { integer(key, as: T.self) }

    /// `true` or `false` under `key`.
    ///
    /// ```swift
    /// let pinned: Bool? = json.value("pinned")
    /// ```
    public mutating func value(_ key: StaticString) -> Bool? { bool(key) }

    /// The finite number under `key`.
    ///
    /// ```swift
    /// let score: Double? = json.value("score")
    /// ```
    public mutating func value(_ key: StaticString) -> Double? { double(key) }

    /// The ISO 8601 date under `key`.
    ///
    /// ```swift
    /// let updated: Date? = json.value("updated")
    /// ```
    public mutating func value(_ key: StaticString) -> Date? { date(key) }

    /// The array of strings under `key` (a `null` fails).
    ///
    /// ```swift
    /// let tags: [String]? = json.value("tags")
    /// ```
    public mutating func value(_ key: StaticString) -> [String]? {
        guard let index = find(key) else { return nil }
        return strings(at: index)
    }

    /// A type without a reading of its own: fails when the member is there (absent is `nil`, for
    /// `init(from:)` to decide).
    ///
    /// ```swift
    /// let location: Location? = json.value("location")   // falls back to init(from:)
    /// ```
    public mutating func value<T: Decodable>(_ key: StaticString) -> T? {
        if find(key) != nil { failed = true }
        return nil
    }

    /// The string under `key`; `nil` when absent or `null`.
    ///
    /// ```swift
    /// let lang: String? = json.valueIfPresent("lang")
    /// ```
    public mutating func valueIfPresent(_ key: StaticString) -> String? { stringIfPresent(key) }

    /// The integer under `key`; `nil` when absent or `null`.
    ///
    /// ```swift
    /// let replyTo: Int64? = json.valueIfPresent("replyTo")
    /// ```
    public mutating func valueIfPresent(_ key: StaticString) -> Int64? { integerIfPresent(key, as: Int64.self) }

    /// The integer under `key`; `nil` when absent or `null`.
    ///
    /// ```swift
    /// let rank: Int? = json.valueIfPresent("rank")
    /// ```
    public mutating func valueIfPresent(_ key: StaticString) -> Int? { integerIfPresent(key, as: Int.self) }

    /// The integer under `key`; `nil` when absent or `null`.
    ///
    /// ```swift
    /// let width: UInt16? = json.valueIfPresent("width")
    /// ```
    public mutating func valueIfPresent<T: FixedWidthInteger & Decodable>(_ key: StaticString) -> T? { integerIfPresent(key, as: T.self) }

    /// `true` or `false` under `key`; `nil` when absent or `null`.
    ///
    /// ```swift
    /// let archived: Bool? = json.valueIfPresent("archived")
    /// ```
    public mutating func valueIfPresent(_ key: StaticString) -> Bool? {
        guard let index = present(key) else { return nil }
        return bool(at: index)
    }

    /// The number under `key`; `nil` when absent or `null`.
    ///
    /// ```swift
    /// let score: Double? = json.valueIfPresent("score")
    /// ```
    public mutating func valueIfPresent(_ key: StaticString) -> Double? {
        guard let index = present(key) else { return nil }
        return double(at: index)
    }

    /// The date under `key`; `nil` when absent or `null`.
    ///
    /// ```swift
    /// let due: Date? = json.valueIfPresent("due")
    /// ```
    public mutating func valueIfPresent(_ key: StaticString) -> Date? {
        guard let index = present(key) else { return nil }
        return date(at: index)
    }

    /// The array of strings under `key`; `nil` when absent or `null`.
    ///
    /// ```swift
    /// let labels: [String]? = json.valueIfPresent("labels")
    /// ```
    public mutating func valueIfPresent(_ key: StaticString) -> [String]? { stringsIfPresent(key) }

    /// A type without a reading of its own: fails unless the member is absent or `null`.
    ///
    /// ```swift
    /// let location: Location? = json.valueIfPresent("location")   // falls back to init(from:)
    /// ```
    public mutating func valueIfPresent<T: Decodable>(_ key: StaticString) -> T? {
        if present(key) != nil { failed = true }
        return nil
    }

    /// A 64-bit id written as a number under `key` and as its decimal text under `twin` (either
    /// may be absent or `null`); when both are there they must agree. `nil` when neither is there.
    package mutating func id(_ key: StaticString, twin: StaticString) -> Int64? {
        let number = integerIfPresent(key, as: Int64.self)
        guard let text = stringIfPresent(twin) else { return number }
        guard let value = Int64(text), number == nil || number == value else { failed = true; return nil }
        return value
    }
}
