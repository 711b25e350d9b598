import Foundation
import TweetieDB

// The JSON work of replication for one record type (RecordCoding and its one implementation),
// with the values it hands between a batch's steps (RemoteValue) and the text of keys (KeyText).

/// A server value decoded for this device: its canonical JSON (what the digest is taken of)
/// and the record itself, so that applying it does not decode it again.
struct RemoteValue: Sendable {
    var json: String
    var record: any Record
}

/// One batch's JSON work for one collection. Not `Sendable`: each task or write transaction
/// makes its own (``ReplicatedCollection/makeCoder``), and its writer and reader are reused
/// across the batch's records.
protocol RecordCoding: AnyObject {
    /// The local record's canonical JSON (`nil`: none).
    func localJSON(_ reader: StoreReader, key: String) throws -> String?
    /// A server record's JSON, decoded and checked against the key it is stored under.
    func decode(key: String, json: String) throws -> RemoteValue
    /// Writes `value` as the local record of `key` (`nil`: deletes it).
    func apply(_ writer: StoreWriter, key: String, value: RemoteValue?) throws
}

final class TypedRecordCoder<R: Record>: RecordCoding where R.PrimaryKey: Codable {
    private let paths = RecordJSONPaths<R>()
    private let keys: KeyText<R.PrimaryKey>
    private var writer = RecordJSONWriter()
    private var reader = RecordJSONReader()
    private var buffer: [UInt8] = []

    init(keys: KeyText<R.PrimaryKey>) {
        self.keys = keys
    }

    func localJSON(_ store: StoreReader, key: String) throws -> String? {
        guard let record = try store.get(R.self, key: try keys.parse(key, collection: R.collectionName)) else { return nil }
        return try json(of: record)
    }

    func json(of record: R) throws -> String {
        buffer.removeAll(keepingCapacity: true)
        try paths.append(record, &writer, &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    func decode(key: String, json: String) throws -> RemoteValue {
        let record = try Self.decode(key, json, paths: paths, keys: keys, reader: &reader)
        return RemoteValue(json: try self.json(of: record), record: record)
    }

    func apply(_ store: StoreWriter, key: String, value: RemoteValue?) throws {
        if let value {
            guard let record = value.record as? R else {
                throw ReplicationError(.undecodableRecord, "The value for \(R.collectionName)/\(key) is a \(type(of: value.record)), not a \(R.self).")
            }
            try store.add(record, update: .modified)
        } else {
            _ = try store.delete(R.self, key: try keys.parse(key, collection: R.collectionName))
        }
    }

    /// Decodes a server record and checks that its primary key is `key`.
    static func decode(_ key: String, _ json: String, paths: RecordJSONPaths<R>, keys: KeyText<R.PrimaryKey>,
                       reader: inout RecordJSONReader) throws -> R {
        let name = R.collectionName
        let record: R
        do {
            var text = json
            record = try text.withUTF8 { try paths.decode(UnsafeRawBufferPointer($0), reader: &reader) }
        } catch {
            throw ReplicationError(.undecodableRecord,
                                   "The record \(name)/\(key) on the server does not decode as \(R.self): \(ReplicatedCollection.describe(error)).")
        }
        let recordKey = try keys.text(record.primaryKey)
        guard recordKey == key else {
            throw ReplicationError(.undecodableRecord,
                                   "The record \(name)/\(key) on the server has the primary key \(recordKey) in its JSON.")
        }
        return record
    }
}

/// A batch's coders, one per collection, made when first asked for.
struct Coders {
    private var made: [String: any RecordCoding] = [:]

    subscript(collection: ReplicatedCollection) -> any RecordCoding {
        mutating get {
            if let coder = made[collection.name] { return coder }
            let coder = collection.makeCoder()
            made[collection.name] = coder
            return coder
        }
    }
}

/// A primary key's text on the server — what PostgreSQL's `record ->> 'id'` gives: a string as
/// it is, any other key its JSON — and back. Strings and integers take a direct path (their text
/// is their description), every other key type goes through JSON.
struct KeyText<K: Codable & Sendable>: Sendable {
    private enum Kind { case string, integer, json }
    private let kind: Kind

    init() {
        if K.self == String.self {
            kind = .string
        } else if K.self is any FixedWidthInteger.Type {
            kind = .integer
        } else {
            kind = .json
        }
    }

    func text(_ key: K) throws -> String {
        switch kind {
        case .string, .integer: return "\(key)"
        case .json:
            let json = String(decoding: try RecordJSON.encoder().encode(key), as: UTF8.self)
            if json.hasPrefix("\"") { return try JSONDecoder().decode(String.self, from: Data(json.utf8)) }
            return json
        }
    }

    func parse(_ text: String, collection: String) throws -> K {
        switch kind {
        case .string:
            return text as! K
        case .integer:
            if let type = K.self as? any FixedWidthInteger.Type, let value = Self.integer(type, text) as? K { return value }
        case .json:
            let decoder = RecordJSON.decoder()
            if let key = try? decoder.decode(K.self, from: Data(text.utf8)) { return key }
            let quoted = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
            if let key = try? decoder.decode(K.self, from: Data(quoted.utf8)) { return key }
        }
        throw ReplicationError(.undecodableRecord, "The key \"\(text)\" of \(collection) is not a \(K.self).")
    }

    private static func integer<T: FixedWidthInteger>(_: T.Type, _ text: String) -> T? { T(text, radix: 10) }
}
