import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// One component of a random composite key, with an independent reference ordering.
private enum KeyValue: Equatable {
    case string(String)
    case int64(Int64)
    case int32(Int32)
    case date(Date)
    case double(Double)
    case uuid(UUID)
    case bool(Bool)

    func append(to encoder: inout KeyEncoder, descending: Bool) {
        switch self {
        case .string(let value): encoder.append(value, descending: descending)
        case .int64(let value): encoder.append(value, descending: descending)
        case .int32(let value): encoder.append(value, descending: descending)
        case .date(let value): encoder.append(value, descending: descending)
        case .double(let value): encoder.append(value, descending: descending)
        case .uuid(let value): encoder.append(value, descending: descending)
        case .bool(let value): encoder.append(value, descending: descending)
        }
    }

    func decodeSame(from decoder: inout KeyDecoder, descending: Bool) throws -> KeyValue {
        switch self {
        case .string: return .string(try decoder.decode(String.self, descending: descending))
        case .int64: return .int64(try decoder.decode(Int64.self, descending: descending))
        case .int32: return .int32(try decoder.decode(Int32.self, descending: descending))
        case .date: return .date(try decoder.decode(Date.self, descending: descending))
        case .double: return .double(try decoder.decode(Double.self, descending: descending))
        case .uuid: return .uuid(try decoder.decode(UUID.self, descending: descending))
        case .bool: return .bool(try decoder.decode(Bool.self, descending: descending))
        }
    }

    /// Reference order, written without the key encoding: -1, 0, 1.
    static func compare(_ lhs: KeyValue, _ rhs: KeyValue) -> Int {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): return lexicographic(Array(a.utf8), Array(b.utf8))
        case let (.int64(a), .int64(b)): return a < b ? -1 : (a == b ? 0 : 1)
        case let (.int32(a), .int32(b)): return a < b ? -1 : (a == b ? 0 : 1)
        case let (.date(a), .date(b)): return compareDoubles(a.timeIntervalSinceReferenceDate, b.timeIntervalSinceReferenceDate)
        case let (.double(a), .double(b)): return compareDoubles(a, b)
        case let (.uuid(a), .uuid(b)): return lexicographic(bytes(a), bytes(b))
        case let (.bool(a), .bool(b)): return a == b ? 0 : (a ? 1 : -1)
        default: fatalError("components of different kinds")
        }
    }

    /// Numeric order, with -0.0 just before +0.0 (no NaNs are generated).
    private static func compareDoubles(_ a: Double, _ b: Double) -> Int {
        if a < b { return -1 }
        if a > b { return 1 }
        if a.sign == b.sign { return 0 }
        return a.sign == .minus ? -1 : 1
    }

    private static func bytes(_ uuid: UUID) -> [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    private static func lexicographic(_ a: [UInt8], _ b: [UInt8]) -> Int {
        for (x, y) in zip(a, b) where x != y {
            return x < y ? -1 : 1
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    static func == (lhs: KeyValue, rhs: KeyValue) -> Bool {
        switch (lhs, rhs) {
        case let (.double(a), .double(b)): return a.bitPattern == b.bitPattern
        case let (.date(a), .date(b)): return a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        default: return compare(lhs, rhs) == 0
        }
    }
}

private enum Kind: CaseIterable {
    case string, int64, int32, date, double, uuid, bool

    func random(using random: inout SeededRandom) -> KeyValue {
        switch self {
        case .string: return .string(random.keyString())
        case .int64: return .int64(random.int64())
        case .int32: return .int32(random.int32())
        case .date: return .date(Date(timeIntervalSinceReferenceDate: random.double()))
        case .double: return .double(random.double())
        case .uuid: return .uuid(random.uuid())
        case .bool: return .bool(Bool.random(using: &random))
        }
    }
}

private struct Schema: CustomStringConvertible {
    var kinds: [Kind]
    var descending: [Bool]

    var description: String {
        zip(kinds, descending).map { "\($0)\($1 ? " desc" : "")" }.joined(separator: ", ")
    }

    func encode(_ values: [KeyValue]) -> [UInt8] {
        var encoder = KeyEncoder()
        for (value, isDescending) in zip(values, descending) {
            value.append(to: &encoder, descending: isDescending)
        }
        return encoder.bytes
    }

    func compare(_ lhs: [KeyValue], _ rhs: [KeyValue]) -> Int {
        for index in lhs.indices {
            let order = KeyValue.compare(lhs[index], rhs[index])
            if order != 0 {
                return descending[index] ? -order : order
            }
        }
        return 0
    }

    /// A random tuple, or a variant of `base` that shares a prefix with it (to exercise ties).
    func randomTuple(near base: [KeyValue]?, using random: inout SeededRandom) -> [KeyValue] {
        var values = kinds.map { $0.random(using: &random) }
        if let base, Bool.random(using: &random) {
            let shared = Int.random(in: 0...kinds.count, using: &random)
            for index in 0..<shared {
                values[index] = base[index]
            }
        }
        return values
    }
}

@Suite("Key encoding properties")
struct KeyEncodingPropertyTests {
    private static let schemas: [Schema] = [
        Schema(kinds: [.string, .int64], descending: [false, false]),
        Schema(kinds: [.date, .int64], descending: [true, false]),
        Schema(kinds: [.int32, .string, .uuid], descending: [false, true, false]),
        Schema(kinds: [.string, .string], descending: [true, true]),
        Schema(kinds: [.string, .double, .bool], descending: [false, true, true]),
        Schema(kinds: [.bool, .string, .int32], descending: [true, false, true]),
    ]

    @Test(arguments: 0..<schemas.count)
    func memcmpOrderMatchesTupleOrder(schemaIndex: Int) throws {
        let schema = Self.schemas[schemaIndex]
        var random = SeededRandom(seed: 0xC0FFEE + UInt64(schemaIndex))
        var previous: [KeyValue]?
        var mismatches = 0
        for _ in 0..<4000 {
            let first = schema.randomTuple(near: previous, using: &random)
            let second = schema.randomTuple(near: first, using: &random)
            previous = second
            let expected = schema.compare(first, second)
            let actual = EncodedKey.compare(schema.encode(first), schema.encode(second))
            if expected != actual {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("[\(schema)] \(first) vs \(second): expected \(expected), memcmp gave \(actual)")
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test(arguments: 0..<schemas.count)
    func decodeInvertsEncode(schemaIndex: Int) throws {
        let schema = Self.schemas[schemaIndex]
        var random = SeededRandom(seed: 0xBEEF + UInt64(schemaIndex))
        for _ in 0..<2000 {
            let values = schema.randomTuple(near: nil, using: &random)
            var decoder = KeyDecoder(schema.encode(values))
            var decoded: [KeyValue] = []
            for (value, isDescending) in zip(values, schema.descending) {
                decoded.append(try value.decodeSame(from: &decoder, descending: isDescending))
            }
            #expect(decoded == values, "[\(schema)] \(values)")
            #expect(decoder.isAtEnd)
        }
    }

    @Test func sortingEncodedKeysSortsTuples() {
        let schema = Self.schemas[2]
        var random = SeededRandom(seed: 42)
        var tuples: [[KeyValue]] = []
        for _ in 0..<500 {
            tuples.append(schema.randomTuple(near: tuples.last, using: &random))
        }
        let byKey = tuples.sorted { EncodedKey(bytes: schema.encode($0)) < EncodedKey(bytes: schema.encode($1)) }
        for (lower, upper) in zip(byKey, byKey.dropFirst()) {
            #expect(schema.compare(lower, upper) <= 0)
        }
    }
}
