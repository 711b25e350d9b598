import Foundation
import TweetieDB

/// One record type that replicates: its collection, the JSON field that holds its primary key on
/// the server, and its ``ConflictPolicy``.
///
/// On the server a record is its export-format JSON object (`RecordJSON`) in `tweetie.records`,
/// under its key's text: what PostgreSQL's `record ->> 'id'` gives (a number's digits, a string
/// as it is).
///
/// ```swift
/// let replicator = try Replicator(store: store, collections: [
///     .records(Tweet.self),
///     .records(User.self, conflicts: .deletesWin),
/// ], configuration: .init(url: "postgres://app@db.example.com/tweetie"))
/// ```
public struct ReplicatedCollection: Sendable {
    /// The collection's name, in the store and in `tweetie.records.collection`.
    public let name: String
    /// The record's JSON field that holds its primary key. Default: `id`.
    public let keyField: String
    /// The record type's schema version.
    public let schemaVersion: Int
    let recordType: any Record.Type
    let policyName: String
    let keyText: @Sendable ([UInt8]) throws -> String
    let readLocal: @Sendable (StoreReader, [String]) throws -> [String?]
    let localKeys: @Sendable (StoreReader) throws -> [String]
    let canonicalize: @Sendable (_ key: String, _ json: String) throws -> String
    let apply: @Sendable (StoreWriter, _ key: String, _ canonicalJSON: String?) throws -> Void
    let resolve: @Sendable (_ key: String, _ local: String?, _ remote: String?, _ base: String?) throws -> Resolution

    /// A conflict's outcome, in JSON.
    enum Resolution: Equatable {
        case keepLocal
        case keepRemote
        /// A value for both sides (`nil`: deleted).
        case write(String?)
    }

    /// The records of `type`, replicated. The primary key type must be `Codable` (its JSON text
    /// names the record on the server).
    public static func records<R: Record>(_ type: R.Type, keyField: String = "id",
                                          conflicts: ConflictPolicy<R> = .lastWriterWins) -> ReplicatedCollection
        where R.PrimaryKey: Codable {
        let name = R.collectionName
        @Sendable func decodeRecord(_ key: String, _ json: String) throws -> R {
            let record: R
            do {
                record = try RecordJSON.decoder().decode(R.self, from: Data(json.utf8))
            } catch {
                throw ReplicationError(.undecodableRecord,
                                       "The record \(name)/\(key) on the server does not decode as \(R.self): \(Self.describe(error)).")
            }
            let recordKey = try Self.text(of: record.primaryKey)
            guard recordKey == key else {
                throw ReplicationError(.undecodableRecord,
                                       "The record \(name)/\(key) on the server has the primary key \(recordKey) in its JSON.")
            }
            return record
        }
        @Sendable func encode(_ record: R) throws -> String {
            String(decoding: try RecordJSON.encoder().encode(record), as: UTF8.self)
        }
        @Sendable func primaryKey(_ text: String) throws -> R.PrimaryKey {
            let decoder = RecordJSON.decoder()
            if let key = try? decoder.decode(R.PrimaryKey.self, from: Data(text.utf8)) { return key }
            let quoted = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
            if let key = try? decoder.decode(R.PrimaryKey.self, from: Data(quoted.utf8)) { return key }
            throw ReplicationError(.undecodableRecord, "The key \"\(text)\" of \(name) is not a \(R.PrimaryKey.self).")
        }
        @Sendable func optionalRecord(_ key: String, _ json: String?) throws -> R? {
            try json.map { try decodeRecord(key, $0) }
        }
        return ReplicatedCollection(
            name: name, keyField: keyField, schemaVersion: R.schemaVersion, recordType: R.self, policyName: conflicts.name,
            keyText: { bytes in
                var decoder = KeyDecoder(bytes)
                return try Self.text(of: try R.PrimaryKey.decodeKey(from: &decoder))
            },
            readLocal: { reader, keys in
                try keys.map { key in try reader.get(R.self, key: try primaryKey(key)).map(encode) }
            },
            localKeys: { reader in
                var keys: [String] = []
                try reader.forEach(Query<R>()) { record in
                    keys.append(try Self.text(of: record.primaryKey))
                    return true
                }
                return keys
            },
            canonicalize: { key, json in try encode(try decodeRecord(key, json)) },
            apply: { writer, key, json in
                if let json {
                    try writer.add(try decodeRecord(key, json), update: .modified)
                } else {
                    _ = try writer.delete(R.self, key: try primaryKey(key))
                }
            },
            resolve: { key, local, remote, base in
                switch conflicts.kind {
                case .lastWriterWins:
                    return .keepLocal
                case .deletesWin:
                    if local == nil { return .keepLocal }
                    if remote == nil { return .keepRemote }
                    return .keepLocal
                case .resolver(let body):
                    switch body(try optionalRecord(key, local), try optionalRecord(key, remote), try optionalRecord(key, base)) {
                    case .keepLocal: return .keepLocal
                    case .keepRemote: return .keepRemote
                    case .delete: return .write(nil)
                    case .merged(let record):
                        let mergedKey = try Self.text(of: record.primaryKey)
                        guard mergedKey == key else {
                            throw ReplicationError(.undecodableRecord,
                                                   "The conflict resolver of \(name) returned a record with the key \(mergedKey) for the key \(key).")
                        }
                        return .write(try encode(record))
                    }
                }
            })
    }

    /// A key's text on the server: its JSON, without the quotes of a string.
    static func text<K: Encodable>(of key: K) throws -> String {
        let json = String(decoding: try RecordJSON.encoder().encode(key), as: UTF8.self)
        if json.hasPrefix("\"") {
            return try JSONDecoder().decode(String.self, from: Data(json.utf8))
        }
        return json
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "the field \"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(let type, let context):
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not a \(type)"
        case DecodingError.valueNotFound(let type, let context):
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is null, not a \(type)"
        case DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}
