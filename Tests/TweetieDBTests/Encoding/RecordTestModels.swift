import Foundation

struct RecordTestTweet: Codable, Equatable {
    var id: Int64
    var text: String
    var authorName: String
    var authorUsername: String
    var authorId: Int64
    var created: Date
    var imageURL: String
    var retweetCount: Int
    var favoriteCount: Int
    var isRetweet: Bool
    var replyTo: Int64?

    static func sample(_ index: Int = 1) -> RecordTestTweet {
        RecordTestTweet(
            id: 1_234_567_890_123 + Int64(index), text: "Hello RxSwift \(index) — ünïcødé 🐦 " + String(repeating: "x", count: index % 50),
            authorName: "Marin", authorUsername: "icanzilb", authorId: 42,
            created: Date(timeIntervalSinceReferenceDate: 700_000_000.123456 + Double(index)),
            imageURL: "https://example.com/\(index).png", retweetCount: index, favoriteCount: -index,
            isRetweet: index % 2 == 0, replyTo: index % 3 == 0 ? nil : Int64(index * 10)
        )
    }
}

enum RecordTestShape: Codable, Equatable {
    case circle(radius: Double)
    case polygon(points: [RecordTestPoint], closed: Bool)
    case label(String, RecordTestPoint?)
    case empty
}

struct RecordTestPoint: Codable, Equatable, Hashable {
    var x: Int32
    var y: Int32
}

/// A type with everything the format supports natively and nested containers.
struct RecordTestEverything: Codable, Equatable {
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var float: Float
    var double: Double
    var bool: Bool
    var string: String
    var data: Data
    var date: Date
    var url: URL
    var uuid: UUID
    var optionalPresent: String?
    var optionalAbsent: Int?
    var array: [Int]
    var nestedArray: [[String]]
    var optionalsInArray: [Int?]
    var dictionary: [String: Int]
    var intKeyedDictionary: [Int: String]
    var structKeyedDictionary: [RecordTestPoint: String]
    var set: Set<String>
    var shapes: [RecordTestShape]
    var point: RecordTestPoint

    static func sample() -> RecordTestEverything {
        RecordTestEverything(
            int: -7, int8: .min, int16: .max, int32: -123_456, int64: .min, uint: .max, uint8: 255, uint16: 65535,
            uint32: 4_000_000_000, uint64: .max, float: 3.25, double: -0.0, bool: true, string: "",
            data: Data([0, 1, 2, 255]), date: Date(timeIntervalSinceReferenceDate: 1.0 / 3.0),
            url: URL(string: "https://example.com/a?b=c#d")!, uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            optionalPresent: "here", optionalAbsent: nil, array: [1, -2, 300_000],
            nestedArray: [["a"], [], ["b", "c"]], optionalsInArray: [1, nil, 3],
            dictionary: ["one": 1, "two": 2, "three": 3, "": 0], intKeyedDictionary: [1: "a", -5: "b", 100: "c"],
            structKeyedDictionary: [RecordTestPoint(x: 1, y: 2): "p", RecordTestPoint(x: -1, y: 0): "q"],
            set: ["x", "y", "z", "w"],
            shapes: [.circle(radius: 2.5), .polygon(points: [RecordTestPoint(x: 0, y: 0), RecordTestPoint(x: 1, y: 1)], closed: true),
                     .label("hi", nil), .label("there", RecordTestPoint(x: 3, y: 4)), .empty],
            point: RecordTestPoint(x: .max, y: .min)
        )
    }
}

/// A class hierarchy using `superEncoder()` / `superDecoder()`.
class RecordTestAnimal: Codable, Equatable {
    var name: String
    init(name: String) { self.name = name }
    static func == (lhs: RecordTestAnimal, rhs: RecordTestAnimal) -> Bool { lhs.name == rhs.name }
}

final class RecordTestDog: RecordTestAnimal, @unchecked Sendable {
    var goodBoy: Bool
    private enum CodingKeys: String, CodingKey { case goodBoy }

    init(name: String, goodBoy: Bool) {
        self.goodBoy = goodBoy
        super.init(name: name)
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        goodBoy = try container.decode(Bool.self, forKey: .goodBoy)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(goodBoy, forKey: .goodBoy)
        try super.encode(to: container.superEncoder())
    }
}

/// Uses nested containers explicitly.
struct RecordTestManual: Codable, Equatable {
    var title: String
    var tags: [String]
    var origin: RecordTestPoint

    private enum CodingKeys: String, CodingKey { case title, meta }
    private enum MetaKeys: String, CodingKey { case tags, x, y }

    init(title: String, tags: [String], origin: RecordTestPoint) {
        self.title = title
        self.tags = tags
        self.origin = origin
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let meta = try container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        // Read out of order on purpose.
        origin = RecordTestPoint(x: try meta.decode(Int32.self, forKey: .x), y: try meta.decode(Int32.self, forKey: .y))
        var tagList = try meta.nestedUnkeyedContainer(forKey: .tags)
        var tags: [String] = []
        while !tagList.isAtEnd {
            tags.append(try tagList.decode(String.self))
        }
        self.tags = tags
        title = try container.decode(String.self, forKey: .title)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var meta = container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        // Written after the nested container was created: must still end up in place.
        try container.encode(title, forKey: .title)
        var tagList = meta.nestedUnkeyedContainer(forKey: .tags)
        for tag in tags {
            try tagList.encode(tag)
        }
        try meta.encode(origin.x, forKey: .x)
        try meta.encode(origin.y, forKey: .y)
    }
}

/// Recursive, for the depth bound.
indirect enum RecordTestTree: Codable, Equatable {
    case leaf
    case node(RecordTestTree)

    static func depth(_ levels: Int) -> RecordTestTree {
        var tree = RecordTestTree.leaf
        for _ in 0..<levels {
            tree = .node(tree)
        }
        return tree
    }
}
