import Foundation
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// A tweet-like record with synthesized `Codable` and a hand-written ``RecordCodable``.
struct RecordFastTweet: Codable, RecordCodable, Equatable {
    var id: Int64
    var text: String
    var name: String
    var username: String
    var authorId: Int64
    var created: Date
    var imageURL: String
    var retweetCount: Int
    var favoriteCount: Int
    var isRetweet: Bool
    var inReplyToId: Int64?

    init(id: Int64, text: String, name: String, username: String, authorId: Int64, created: Date,
         imageURL: String, retweetCount: Int, favoriteCount: Int, isRetweet: Bool, inReplyToId: Int64?) {
        self.id = id
        self.text = text
        self.name = name
        self.username = username
        self.authorId = authorId
        self.created = created
        self.imageURL = imageURL
        self.retweetCount = retweetCount
        self.favoriteCount = favoriteCount
        self.isRetweet = isRetweet
        self.inReplyToId = inReplyToId
    }

    func encode(to writer: inout RecordWriter) {
        writer.write(id, forKey: "id")
        writer.write(text, forKey: "text")
        writer.write(name, forKey: "name")
        writer.write(username, forKey: "username")
        writer.write(authorId, forKey: "authorId")
        writer.write(created, forKey: "created")
        writer.write(imageURL, forKey: "imageURL")
        writer.write(retweetCount, forKey: "retweetCount")
        writer.write(favoriteCount, forKey: "favoriteCount")
        writer.write(isRetweet, forKey: "isRetweet")
        writer.write(inReplyToId, forKey: "inReplyToId")
    }

    init(from reader: inout RecordFieldReader) throws {
        var id: Int64?, text: String?, name: String?, username: String?, authorId: Int64?
        var created: Date?, imageURL: String?, retweetCount: Int?, favoriteCount: Int?
        var isRetweet: Bool?, inReplyToId: Int64?
        while let field = try reader.nextField() {
            switch field.name {
            case "id": id = try field.decode(Int64.self)
            case "text": text = try field.decode(String.self)
            case "name": name = try field.decode(String.self)
            case "username": username = try field.decode(String.self)
            case "authorId": authorId = try field.decode(Int64.self)
            case "created": created = try field.decode(Date.self)
            case "imageURL": imageURL = try field.decode(String.self)
            case "retweetCount": retweetCount = try field.decode(Int.self)
            case "favoriteCount": favoriteCount = try field.decode(Int.self)
            case "isRetweet": isRetweet = try field.decode(Bool.self)
            case "inReplyToId": inReplyToId = try field.decodeIfPresent(Int64.self)
            default: break
            }
        }
        self.init(
            id: try reader.require(id, forKey: "id"),
            text: try reader.require(text, forKey: "text"),
            name: try reader.require(name, forKey: "name"),
            username: try reader.require(username, forKey: "username"),
            authorId: try reader.require(authorId, forKey: "authorId"),
            created: try reader.require(created, forKey: "created"),
            imageURL: try reader.require(imageURL, forKey: "imageURL"),
            retweetCount: try reader.require(retweetCount, forKey: "retweetCount"),
            favoriteCount: try reader.require(favoriteCount, forKey: "favoriteCount"),
            isRetweet: try reader.require(isRetweet, forKey: "isRetweet"),
            inReplyToId: inReplyToId
        )
    }

    static func random(using random: inout SeededRandom) -> RecordFastTweet {
        RecordFastTweet(
            id: random.int64(), text: random.text(maxLength: 300), name: random.text(maxLength: 20),
            username: random.text(maxLength: 15), authorId: random.int64(),
            created: Date(timeIntervalSinceReferenceDate: random.double()),
            imageURL: random.text(maxLength: 80), retweetCount: Int(random.int64()),
            favoriteCount: Int(random.int32()), isRetweet: Bool.random(using: &random),
            inReplyToId: Bool.random(using: &random) ? nil : random.int64()
        )
    }
}

/// Forces the `Codable` path for a value whose type also adopts ``RecordCodable``: encodes
/// and decodes the wrapped value's own keyed container, adding nothing.
struct RecordCodableOnly<Wrapped: Codable>: Codable {
    var value: Wrapped

    init(_ value: Wrapped) {
        self.value = value
    }

    init(from decoder: any Decoder) throws {
        value = try Wrapped(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}

/// Natively stored types of every kind, optionals and values written through `Encodable`.
struct RecordFastEverything: Codable, RecordCodable, Equatable {
    var int8: Int8
    var uint16: UInt16
    var int32: Int32
    var uint: UInt
    var uint64: UInt64
    var float: Float
    var double: Double
    var data: Data
    var url: URL
    var uuid: UUID
    var tags: [String]
    var point: RecordTestPoint
    var shape: RecordTestShape?
    var note: String?
    var counts: [String: Int]

    func encode(to writer: inout RecordWriter) {
        writer.write(int8, forKey: "int8")
        writer.write(uint16, forKey: "uint16")
        writer.write(int32, forKey: "int32")
        writer.write(uint, forKey: "uint")
        writer.write(uint64, forKey: "uint64")
        writer.write(float, forKey: "float")
        writer.write(double, forKey: "double")
        writer.write(data, forKey: "data")
        writer.write(url, forKey: "url")
        writer.write(uuid, forKey: "uuid")
        writer.write(tags, forKey: "tags")
        writer.write(point, forKey: "point")
        writer.write(shape, forKey: "shape")
        writer.write(note, forKey: "note")
        writer.write(counts, forKey: "counts")
    }

    init(int8: Int8, uint16: UInt16, int32: Int32, uint: UInt, uint64: UInt64, float: Float, double: Double, data: Data,
         url: URL, uuid: UUID, tags: [String], point: RecordTestPoint, shape: RecordTestShape?, note: String?, counts: [String: Int]) {
        self.int8 = int8
        self.uint16 = uint16
        self.int32 = int32
        self.uint = uint
        self.uint64 = uint64
        self.float = float
        self.double = double
        self.data = data
        self.url = url
        self.uuid = uuid
        self.tags = tags
        self.point = point
        self.shape = shape
        self.note = note
        self.counts = counts
    }

    init(from reader: inout RecordFieldReader) throws {
        var int8: Int8?, uint16: UInt16?, int32: Int32?, uint: UInt?, uint64: UInt64?, float: Float?, double: Double?
        var data: Data?, url: URL?, uuid: UUID?, tags: [String]?, point: RecordTestPoint?, shape: RecordTestShape?
        var note: String?, counts: [String: Int]?
        while let field = try reader.nextField() {
            switch field.name {
            case "int8": int8 = try field.decode(Int8.self)
            case "uint16": uint16 = try field.decode(UInt16.self)
            case "int32": int32 = try field.decode(Int32.self)
            case "uint": uint = try field.decode(UInt.self)
            case "uint64": uint64 = try field.decode(UInt64.self)
            case "float": float = try field.decode(Float.self)
            case "double": double = try field.decode(Double.self)
            case "data": data = try field.decode(Data.self)
            case "url": url = try field.decode(URL.self)
            case "uuid": uuid = try field.decode(UUID.self)
            case "tags": tags = try field.decode([String].self)
            case "point": point = try field.decode(RecordTestPoint.self)
            case "shape": shape = try field.decodeIfPresent(RecordTestShape.self)
            case "note": note = try field.decodeIfPresent(String.self)
            case "counts": counts = try field.decode([String: Int].self)
            default: break
            }
        }
        self.init(
            int8: try reader.require(int8, forKey: "int8"), uint16: try reader.require(uint16, forKey: "uint16"),
            int32: try reader.require(int32, forKey: "int32"), uint: try reader.require(uint, forKey: "uint"),
            uint64: try reader.require(uint64, forKey: "uint64"), float: try reader.require(float, forKey: "float"),
            double: try reader.require(double, forKey: "double"), data: try reader.require(data, forKey: "data"),
            url: try reader.require(url, forKey: "url"), uuid: try reader.require(uuid, forKey: "uuid"),
            tags: try reader.require(tags, forKey: "tags"), point: try reader.require(point, forKey: "point"),
            shape: shape, note: note, counts: try reader.require(counts, forKey: "counts")
        )
    }

    static func random(using random: inout SeededRandom) -> RecordFastEverything {
        let shapes: [RecordTestShape?] = [nil, .circle(radius: random.double()), .label(random.keyString(), nil), .empty]
        var counts: [String: Int] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            counts[random.keyString()] = Int(random.int32())
        }
        return RecordFastEverything(
            int8: Int8(truncatingIfNeeded: random.next()), uint16: UInt16(truncatingIfNeeded: random.next()),
            int32: random.int32(), uint: UInt(truncatingIfNeeded: random.next()), uint64: random.next(),
            float: Float(Int.random(in: -1000...1000, using: &random)) / 8, double: random.double(),
            data: Data((0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }),
            url: URL(string: "https://example.com/\(random.next())?q=\(random.int32())")!, uuid: random.uuid(),
            tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in random.text(maxLength: 12) },
            point: RecordTestPoint(x: random.int32(), y: random.int32()),
            shape: shapes[Int.random(in: 0..<shapes.count, using: &random)],
            note: Bool.random(using: &random) ? nil : random.text(maxLength: 30), counts: counts
        )
    }
}

extension SeededRandom {
    /// Text of up to `maxLength` characters: mostly ASCII, sometimes multi-byte scalars.
    mutating func text(maxLength: Int) -> String {
        let alphabet: [Unicode.Scalar] = ["a", "Z", " ", "#", "0", "/", ".", "\u{0}", "é", "ü", "—", "🐦", "中", "\u{7F}"]
        let ascii = Int.random(in: 0..<3, using: &self) != 0
        let length = Int.random(in: 0...maxLength, using: &self)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            scalars.append(alphabet[Int.random(in: 0..<(ascii ? 8 : alphabet.count), using: &self)])
        }
        return String(scalars)
    }
}
