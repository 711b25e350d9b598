import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@Record` generates: the exact members for the README's `Note` and for each kind of
/// property (optional, defaulted, `@Indexed`, `@Interned`, computed, static, observed).
@Suite("@Record expansion")
struct RecordMacroExpansionTests {
    @Test func theREADMEsNote() {
        assertRecordExpansion(
            """
            @Record(collection: "notes")
            struct Note: Identifiable, Sendable {
                static let indexes: [Index<Note>] = [Index("updated", order: .descending) { $0.updated }]
                var id: Int64
                var author: String
                var updated: Date
                var tags: [String]
                var replyTo: Int64?
            }
            """,
            expandedSource: """
            struct Note: Identifiable, Sendable {
                static let indexes: [Index<Note>] = [Index("updated", order: .descending) { $0.updated }]
                var id: Int64
                var author: String
                var updated: Date
                var tags: [String]
                var replyTo: Int64?
            }

            extension Note: Record, RecordCodable {
                static var collectionName: String {
                    "notes"
                }

                enum CodingKeys: String, CodingKey {
                    case id, author, updated, tags, replyTo
                }

                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: CodingKeys.self)
                    self.id = try container.decode(Int64.self, forKey: .id)
                    self.author = try container.decode(String.self, forKey: .author)
                    self.updated = try container.decode(Date.self, forKey: .updated)
                    self.tags = try container.decode([String].self, forKey: .tags)
                    self.replyTo = try container.decodeIfPresent(Int64.self, forKey: .replyTo)
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(self.id, forKey: .id)
                    try container.encode(self.author, forKey: .author)
                    try container.encode(self.updated, forKey: .updated)
                    try container.encode(self.tags, forKey: .tags)
                    try container.encodeIfPresent(self.replyTo, forKey: .replyTo)
                }

                func encode(to writer: inout TweetieDB.RecordWriter) {
                    writer.write(self.id, forKey: "id")
                    writer.write(self.author, forKey: "author")
                    writer.write(self.updated, forKey: "updated")
                    writer.write(self.tags, forKey: "tags")
                    writer.write(self.replyTo, forKey: "replyTo")
                }

                init(from reader: inout TweetieDB.RecordFieldReader) throws {
                    var _id: Int64? = nil
                    var _author: String? = nil
                    var _updated: Date? = nil
                    var _tags: [String]? = nil
                    var _replyTo: Int64? = nil
                    while let field = try reader.nextField() {
                        switch field.name {
                        case "id":
                            _id = try field.decode(Int64.self)
                        case "author":
                            _author = try field.decode(String.self)
                        case "updated":
                            _updated = try field.decode(Date.self)
                        case "tags":
                            _tags = try field.decode([String].self)
                        case "replyTo":
                            _replyTo = try field.decodeIfPresent(Int64.self)
                        default:
                            break
                        }
                    }
                    self.id = try reader.require(_id, forKey: "id")
                    self.author = try reader.require(_author, forKey: "author")
                    self.updated = try reader.require(_updated, forKey: "updated")
                    self.tags = try reader.require(_tags, forKey: "tags")
                    self.replyTo = _replyTo
                }
            }
            """,
            conformances: ["Record", "RecordCodable"]
        )
    }

    @Test func everyKindOfProperty() {
        assertRecordExpansion(
            """
            @Record
            public struct Post {
                public static let maximumLength = 280
                public var id: UUID
                @Indexed(order: .descending) public var created: Date
                @Indexed(unique: true) public var slug: String
                @Interned public var author: String
                public var tags: [String] = []
                public var place: Place?
                public var views: Int = 0 {
                    didSet { print(views) }
                }
                public var summary: String { String(slug.prefix(10)) }
                lazy var cache: Int = 0
            }
            """,
            expandedSource: """
            public struct Post {
                public static let maximumLength = 280
                public var id: UUID
                public var created: Date
                public var slug: String
                public var author: String
                public var tags: [String] = []
                public var place: Place?
                public var views: Int = 0 {
                    didSet { print(views) }
                }
                public var summary: String { String(slug.prefix(10)) }
                lazy var cache: Int = 0

                /// The index of `created`, declared by `@Indexed`: what queries name it by.
                public static let byCreated = TweetieDB.Index<Post>.on("created", order: .descending) {
                    $0.created
                }

                /// The index of `slug`, declared by `@Indexed`: what queries name it by.
                public static let bySlug = TweetieDB.Index<Post>.on("slug", unique: true) {
                    $0.slug
                }

                /// Creates a `Post` from its stored properties: the memberwise initializer, as visible as the struct.
                public init(id: UUID, created: Date, slug: String, author: String, tags: [String] = [], place: Place? = nil, views: Int = 0) {
                    self.id = id
                    self.created = created
                    self.slug = slug
                    self.author = author
                    self.tags = tags
                    self.place = place
                    self.views = views
                }
            }

            extension Post: Record, RecordCodable, Identifiable {
                public static var collectionName: String {
                    "Post"
                }

                public static let indexes: [TweetieDB.Index<Post>] = [Self.byCreated.index, Self.bySlug.index]

                enum CodingKeys: String, CodingKey {
                    case id, created, slug, author, tags, place, views
                }

                public init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: CodingKeys.self)
                    self.id = try container.decode(UUID.self, forKey: .id)
                    self.created = try container.decode(Date.self, forKey: .created)
                    self.slug = try container.decode(String.self, forKey: .slug)
                    self.author = try container.decode(String.self, forKey: .author)
                    self.tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
                    self.place = try container.decodeIfPresent(Place.self, forKey: .place)
                    self.views = try container.decodeIfPresent(Int.self, forKey: .views) ?? 0
                }

                public func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(self.id, forKey: .id)
                    try container.encode(self.created, forKey: .created)
                    try container.encode(self.slug, forKey: .slug)
                    try container.encode(self.author, forKey: .author)
                    try container.encode(self.tags, forKey: .tags)
                    try container.encodeIfPresent(self.place, forKey: .place)
                    try container.encode(self.views, forKey: .views)
                }

                public func encode(to writer: inout TweetieDB.RecordWriter) {
                    writer.write(self.id, forKey: "id")
                    writer.write(self.created, forKey: "created")
                    writer.write(self.slug, forKey: "slug")
                    writer.write(self.author, forKey: "author")
                    writer.write(self.tags, forKey: "tags")
                    writer.write(self.place, forKey: "place")
                    writer.write(self.views, forKey: "views")
                }

                public init(from reader: inout TweetieDB.RecordFieldReader) throws {
                    var _id: UUID? = nil
                    var _created: Date? = nil
                    var _slug: String? = nil
                    var _author: String? = nil
                    var _tags: [String]? = nil
                    var _place: Place? = nil
                    var _views: Int? = nil
                    while let field = try reader.nextField() {
                        switch field.name {
                        case "id":
                            _id = try field.decode(UUID.self)
                        case "created":
                            _created = try field.decode(Date.self)
                        case "slug":
                            _slug = try field.decode(String.self)
                        case "author":
                            _author = try field.decodeShared(String.self)
                        case "tags":
                            _tags = try field.decodeIfPresent([String].self)
                        case "place":
                            _place = try field.decodeIfPresent(Place.self)
                        case "views":
                            _views = try field.decodeIfPresent(Int.self)
                        default:
                            break
                        }
                    }
                    self.id = try reader.require(_id, forKey: "id")
                    self.created = try reader.require(_created, forKey: "created")
                    self.slug = try reader.require(_slug, forKey: "slug")
                    self.author = try reader.require(_author, forKey: "author")
                    self.tags = _tags ?? []
                    self.place = _place
                    self.views = _views ?? 0
                }
            }
            """
        )
    }

    /// A member of `Codable` the struct declares itself is kept and not generated; the members it does
    /// not declare are still generated, as Swift's own Codable synthesis does (here `CodingKeys` and
    /// `encode(to:)` beside the struct's `init(from:)`). The direct JSON writer follows the generated
    /// `encode(to:)`; no direct reader, which would bypass the struct's own `init(from:)`.
    @Test func aStructsOwnCodableFormIsKept() {
        assertRecordExpansion(
            """
            @Record
            struct Note {
                var id: Int64
                init(from decoder: any Decoder) throws {
                    id = 1
                }
            }
            """,
            expandedSource: """
            struct Note {
                var id: Int64
                init(from decoder: any Decoder) throws {
                    id = 1
                }
            }

            extension Note: Record, RecordCodable, Identifiable, JSONObjectWritable {
                static var collectionName: String {
                    "Note"
                }

                enum CodingKeys: String, CodingKey {
                    case id
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(self.id, forKey: .id)
                }

                func encode(to writer: inout TweetieDB.RecordWriter) {
                    writer.write(self.id, forKey: "id")
                }

                init(from reader: inout TweetieDB.RecordFieldReader) throws {
                    var _id: Int64? = nil
                    while let field = try reader.nextField() {
                        switch field.name {
                        case "id":
                            _id = try field.decode(Int64.self)
                        default:
                            break
                        }
                    }
                    self.id = try reader.require(_id, forKey: "id")
                }

                func writeJSONObject(to object: inout TweetieDB.JSONObjectWriter) {
                    object.write(self.id, forKey: "id")
                }
            }
            """
        )
    }

    /// The direct JSON members: members in their keys' byte order (`Zeta` < `a10` < `a9` < `alpha`,
    /// not the declaration order), `writeIfPresent` for optionals, `valueIfPresent` with the default
    /// for defaulted members, a keyword name's key without backticks; `public` with the struct.
    @Test func theDirectJSONMembers() {
        assertRecordExpansion(
            """
            @Record
            public struct Note {
                var id: Int64
                var alpha: Bool
                var Zeta: String
                var a9: UInt8
                var a10: Date?
                var tags: [String] = ["new"]
                var `default`: Double?
            }
            """,
            expandedSource: """
            public struct Note {
                var id: Int64
                var alpha: Bool
                var Zeta: String
                var a9: UInt8
                var a10: Date?
                var tags: [String] = ["new"]
                var `default`: Double?
            }

            extension Note: Record, RecordCodable, Identifiable, JSONObjectWritable, JSONObjectReadable {
                public static var collectionName: String {
                    "Note"
                }

                enum CodingKeys: String, CodingKey {
                    case id, alpha, Zeta, a9, a10, tags, `default`
                }

                public init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: CodingKeys.self)
                    self.id = try container.decode(Int64.self, forKey: .id)
                    self.alpha = try container.decode(Bool.self, forKey: .alpha)
                    self.Zeta = try container.decode(String.self, forKey: .Zeta)
                    self.a9 = try container.decode(UInt8.self, forKey: .a9)
                    self.a10 = try container.decodeIfPresent(Date.self, forKey: .a10)
                    self.tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? ["new"]
                    self.`default` = try container.decodeIfPresent(Double.self, forKey: .`default`)
                }

                public func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(self.id, forKey: .id)
                    try container.encode(self.alpha, forKey: .alpha)
                    try container.encode(self.Zeta, forKey: .Zeta)
                    try container.encode(self.a9, forKey: .a9)
                    try container.encodeIfPresent(self.a10, forKey: .a10)
                    try container.encode(self.tags, forKey: .tags)
                    try container.encodeIfPresent(self.`default`, forKey: .`default`)
                }

                public func encode(to writer: inout TweetieDB.RecordWriter) {
                    writer.write(self.id, forKey: "id")
                    writer.write(self.alpha, forKey: "alpha")
                    writer.write(self.Zeta, forKey: "Zeta")
                    writer.write(self.a9, forKey: "a9")
                    writer.write(self.a10, forKey: "a10")
                    writer.write(self.tags, forKey: "tags")
                    writer.write(self.`default`, forKey: "default")
                }

                public init(from reader: inout TweetieDB.RecordFieldReader) throws {
                    var _id: Int64? = nil
                    var _alpha: Bool? = nil
                    var _Zeta: String? = nil
                    var _a9: UInt8? = nil
                    var _a10: Date? = nil
                    var _tags: [String]? = nil
                    var _default: Double? = nil
                    while let field = try reader.nextField() {
                        switch field.name {
                        case "id":
                            _id = try field.decode(Int64.self)
                        case "alpha":
                            _alpha = try field.decode(Bool.self)
                        case "Zeta":
                            _Zeta = try field.decode(String.self)
                        case "a9":
                            _a9 = try field.decode(UInt8.self)
                        case "a10":
                            _a10 = try field.decodeIfPresent(Date.self)
                        case "tags":
                            _tags = try field.decodeIfPresent([String].self)
                        case "default":
                            _default = try field.decodeIfPresent(Double.self)
                        default:
                            break
                        }
                    }
                    self.id = try reader.require(_id, forKey: "id")
                    self.alpha = try reader.require(_alpha, forKey: "alpha")
                    self.Zeta = try reader.require(_Zeta, forKey: "Zeta")
                    self.a9 = try reader.require(_a9, forKey: "a9")
                    self.a10 = _a10
                    self.tags = _tags ?? ["new"]
                    self.`default` = _default
                }

                public func writeJSONObject(to object: inout TweetieDB.JSONObjectWriter) {
                    object.write(self.Zeta, forKey: "Zeta")
                    object.writeIfPresent(self.a10, forKey: "a10")
                    object.write(self.a9, forKey: "a9")
                    object.write(self.alpha, forKey: "alpha")
                    object.writeIfPresent(self.`default`, forKey: "default")
                    object.write(self.id, forKey: "id")
                    object.write(self.tags, forKey: "tags")
                }

                public init?(jsonObject json: inout TweetieDB.JSONObjectReader) {
                    let _Zeta: String? = json.value("Zeta")
                    let _a10: Date? = json.valueIfPresent("a10")
                    let _a9: UInt8? = json.value("a9")
                    let _alpha: Bool? = json.value("alpha")
                    let _default: Double? = json.valueIfPresent("default")
                    let _id: Int64? = json.value("id")
                    let _tags: [String]? = json.valueIfPresent("tags")
                    guard !json.failed, let _id, let _alpha, let _Zeta, let _a9 else {
                        return nil
                    }
                    self.id = _id
                    self.alpha = _alpha
                    self.Zeta = _Zeta
                    self.a9 = _a9
                    self.a10 = _a10
                    self.tags = _tags ?? ["new"]
                    self.`default` = _default
                }
            }
            """
        )
    }

    /// A property without a direct JSON text (`UUID`, a nested value) means no direct JSON
    /// members and no such conformances: the record's JSON goes through `Codable` alone.
    @Test func noDirectJSONMembersWhenATypeHasNoDirectText() {
        assertRecordExpansion(
            """
            @Record
            struct Note {
                var id: UUID
                var text: String
            }
            """,
            expandedSource: """
            struct Note {
                var id: UUID
                var text: String
            }

            extension Note: Record, RecordCodable, Identifiable {
                static var collectionName: String {
                    "Note"
                }

                enum CodingKeys: String, CodingKey {
                    case id, text
                }

                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: CodingKeys.self)
                    self.id = try container.decode(UUID.self, forKey: .id)
                    self.text = try container.decode(String.self, forKey: .text)
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(self.id, forKey: .id)
                    try container.encode(self.text, forKey: .text)
                }

                func encode(to writer: inout TweetieDB.RecordWriter) {
                    writer.write(self.id, forKey: "id")
                    writer.write(self.text, forKey: "text")
                }

                init(from reader: inout TweetieDB.RecordFieldReader) throws {
                    var _id: UUID? = nil
                    var _text: String? = nil
                    while let field = try reader.nextField() {
                        switch field.name {
                        case "id":
                            _id = try field.decode(UUID.self)
                        case "text":
                            _text = try field.decode(String.self)
                        default:
                            break
                        }
                    }
                    self.id = try reader.require(_id, forKey: "id")
                    self.text = try reader.require(_text, forKey: "text")
                }
            }
            """
        )
    }

    /// A struct nested in another type gets an alias of each property's type inside its body,
    /// and the extension (at file scope, where `Location` alone names nothing) names the types
    /// through them.
    @Test func aNestedStructNamesItsTypesThroughAliases() {
        assertRecordExpansion(
            """
            enum Feed {
                struct Location: Codable {}
                @Record
                struct Post {
                    var id: Int64
                    var location: Location?
                }
            }
            """,
            expandedSource: """
            enum Feed {
                struct Location: Codable {}
                struct Post {
                    var id: Int64
                    var location: Location?

                    private typealias _RecordValue_id = Int64

                    private typealias _RecordValue_location = Location
                }
            }

            extension Feed.Post: Record, RecordCodable, Identifiable {
                static var collectionName: String {
                    "Post"
                }

                enum CodingKeys: String, CodingKey {
                    case id, location
                }

                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: CodingKeys.self)
                    self.id = try container.decode(_RecordValue_id.self, forKey: .id)
                    self.location = try container.decodeIfPresent(_RecordValue_location.self, forKey: .location)
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(self.id, forKey: .id)
                    try container.encodeIfPresent(self.location, forKey: .location)
                }

                func encode(to writer: inout TweetieDB.RecordWriter) {
                    writer.write(self.id, forKey: "id")
                    writer.write(self.location, forKey: "location")
                }

                init(from reader: inout TweetieDB.RecordFieldReader) throws {
                    var _id: _RecordValue_id? = nil
                    var _location: _RecordValue_location? = nil
                    while let field = try reader.nextField() {
                        switch field.name {
                        case "id":
                            _id = try field.decode(_RecordValue_id.self)
                        case "location":
                            _location = try field.decodeIfPresent(_RecordValue_location.self)
                        default:
                            break
                        }
                    }
                    self.id = try reader.require(_id, forKey: "id")
                    self.location = _location
                }
            }
            """
        )
    }
}
