import TweetieDBCore

/// Makes a struct a record: adds the `Record` conformance (collection name, `@Indexed`
/// indexes), the fast `RecordCodable` codec for its stored properties, and a `Codable`
/// conformance that writes the same fields under the same names.
///
/// The collection is named after the type; `indexes` is optional. A `public` struct whose stored
/// properties are all `public` gets a `public` memberwise initializer (defaults kept as default
/// arguments), unless it declares one with the same labels; the implicit one would be internal. The stored form is the one
/// `Codable` gives (fields in declaration order, `nil` optionals omitted), so schema evolution
/// follows the format's rules: a property added with a default value reads old records (which
/// lack it) with that default, an added optional reads them as `nil`, and a removed property's
/// field is skipped. Integers, `Bool`, `Double`, `Float`, `String`, `Date`, `UUID`, `Data`, `URL`
/// and `[String]` are stored directly; other `Codable` types (nested structs, enums, other
/// arrays) through their `Codable` conformance, for that field only. Computed, `static` and
/// `lazy` properties are not stored. About 2× faster to write and 2–3× faster to scan than
/// the same struct declared `Record, Codable` (BENCHMARKS.md). When every property is a
/// `String`, `Bool`, `Double`, `Date`, a standard integer or `[String]` (optional or not) and the
/// JSON form is the generated one, export and import write and read its JSON member by member
/// (`JSONObjectWritable`, `JSONObjectReadable`), as fast as for TweetieSync's `Tweet`.
///
/// ```swift
/// @Record
/// public struct Note: Identifiable, Sendable {
///     public var id: Int64
///     @Indexed(order: .descending) public var updated: Date
///     public var tags: [String] = []
/// }
///
/// let note = Note(id: 1, updated: .now)                     // public, from any module
/// let newest = Query<Note>().sorted(by: Note.byUpdated)     // the handle @Indexed declares
/// ```
@attached(extension, conformances: Record, RecordCodable, Identifiable, JSONObjectWritable, JSONObjectReadable,
          names: named(collectionName), named(indexes), named(CodingKeys), named(init(from:)), named(encode(to:)),
          named(writeJSONObject(to:)), named(init(jsonObject:)))
@attached(member, names: arbitrary)
public macro Record() = #externalMacro(module: "TweetieDBMacros", type: "RecordMacro")

/// Makes a struct a record stored in the collection `collection` (letters, digits, `_`, `-`).
///
/// ```swift
/// @Record(collection: "notes")
/// struct Note { var id: Int64; var text: String }
/// ```
@attached(extension, conformances: Record, RecordCodable, Identifiable, JSONObjectWritable, JSONObjectReadable,
          names: named(collectionName), named(indexes), named(CodingKeys), named(init(from:)), named(encode(to:)),
          named(writeJSONObject(to:)), named(init(jsonObject:)))
@attached(member, names: arbitrary)
public macro Record(collection: String) = #externalMacro(module: "TweetieDBMacros", type: "RecordMacro")

/// Declares a single-field index on a property of a `@Record` struct, named after the property
/// (Realm's `@Persisted(indexed: true)`), and its handle `by<Name>`, a `TypedIndex` that
/// queries take. Compound and computed indexes are declared with `Index<T>.on(…)`; when the
/// struct declares `indexes` itself, it lists the `@Indexed` handles too (`byUpdated.index`).
///
/// ```swift
/// @Indexed(order: .descending) var updated: Date    // Note.byUpdated: TypedIndex<Note, Date>
/// @Indexed(unique: true) var email: String           // Note.byEmail
/// ```
@attached(peer)
public macro Indexed(unique: Bool = false, order: SortOrder = .ascending) =
    #externalMacro(module: "TweetieDBMacros", type: "IndexedMacro")

/// Marks a `String` or `[String]` property of a `@Record` struct whose values many records
/// repeat (a name, an avatar URL, a language code): within one scan, equal values share one
/// storage (`RecordField.decodeShared(_:)`). For unique text it only costs time.
///
/// ```swift
/// @Interned var username: String
/// ```
@attached(peer)
public macro Interned() = #externalMacro(module: "TweetieDBMacros", type: "InternedMacro")
