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
    let localKeys: @Sendable (StoreReader) throws -> [String]
    /// A coder for one batch: the JSON work, with a writer and reader reused across its records.
    let makeCoder: @Sendable () -> any RecordCoding
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
        let keys = KeyText<R.PrimaryKey>()
        @Sendable func decodeRecord(_ key: String, _ json: String) throws -> R {
            var reader = RecordJSONReader()
            return try TypedRecordCoder<R>.decode(key, json, paths: RecordJSONPaths<R>(), keys: keys, reader: &reader)
        }
        @Sendable func encode(_ record: R) throws -> String {
            String(decoding: try RecordJSON.encoder().encode(record), as: UTF8.self)
        }
        @Sendable func optionalRecord(_ key: String, _ json: String?) throws -> R? {
            try json.map { try decodeRecord(key, $0) }
        }
        return ReplicatedCollection(
            name: name, keyField: keyField, schemaVersion: R.schemaVersion, recordType: R.self, policyName: conflicts.name,
            keyText: { bytes in
                var decoder = KeyDecoder(bytes)
                return try keys.text(try R.PrimaryKey.decodeKey(from: &decoder))
            },
            localKeys: { reader in
                var texts: [String] = []
                try reader.forEach(Query<R>()) { record in
                    texts.append(try keys.text(record.primaryKey))
                    return true
                }
                return texts
            },
            makeCoder: { TypedRecordCoder<R>(keys: keys) },
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
                        let mergedKey = try keys.text(record.primaryKey)
                        guard mergedKey == key else {
                            throw ReplicationError(.undecodableRecord,
                                                   "The conflict resolver of \(name) returned a record with the key \(mergedKey) for the key \(key).")
                        }
                        return .write(try encode(record))
                    }
                }
            })
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
