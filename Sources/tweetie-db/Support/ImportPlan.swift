import Foundation
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

/// What an import would do to the stored records, per collection: what `import --dry-run`
/// prints, and the size of what `import --mode replace` asks about.
///
/// Rules: it reads the file's record lines for their collection and primary key (`id`, or its
/// string twin `idStr`) only; it does not validate records, which the real import does, all or
/// nothing.
struct ImportPlan {
    struct Counts { var added = 0, replaced = 0, deleted = 0 }

    var perCollection: [String: Counts] = [:]

    /// Whether `collection` holds a record with primary key `key` (false for a collection the
    /// CLI does not know).
    private static func contains(_ key: Int64, in collection: String, _ tx: some StoreReading) throws -> Bool {
        switch collection {
        case Tweet.collectionName: try tx.contains(Tweet.self, key: key)
        case User.collectionName: try tx.contains(User.self, key: key)
        default: false
        }
    }

    /// The stored records per collection (what a replace removes), from one snapshot.
    static func stored(in store: Store) throws -> [String: Int] {
        try store.read { tx in [Tweet.collectionName: try tx.count(Tweet.self), User.collectionName: try tx.count(User.self)] }
    }

    /// Reads the export on `fileDescriptor` and compares its keys with `store` (nil: no database
    /// yet, so every record is new).
    init(reading fileDescriptor: Int32, into store: Store?, mode: ImportMode) throws {
        var keys: [String: Set<Int64>] = [:]
        var lineNumber = 0
        try Self.forEachLine(of: fileDescriptor) { line in
            lineNumber += 1
            guard lineNumber > 1 else { return }  // the header
            guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
                  let collection = object["collection"] as? String, let record = object["record"] as? [String: Any],
                  let key = Self.key(of: record) else {
                throw CLIError("line \(lineNumber) of the export has no collection and record id; run the import without --dry-run to see why")
            }
            keys[collection, default: []].insert(key)
        }
        guard let store else {
            perCollection = keys.mapValues { Counts(added: $0.count) }
            return
        }
        let stored = try Self.stored(in: store)
        try store.read { tx in
            for (collection, keys) in keys {
                let present = try keys.filter { try Self.contains($0, in: collection, tx) }.count
                perCollection[collection] = Counts(added: keys.count - present, replaced: present)
            }
        }
        if mode == .replace {
            for (collection, count) in stored where count > 0 || perCollection[collection] != nil {
                perCollection[collection, default: Counts()].deleted = count - perCollection[collection, default: Counts()].replaced
            }
        }
    }

    /// One line per collection: "tweets: 3 added, 117 replaced, 0 deleted".
    var description: String {
        perCollection.sorted { $0.key < $1.key }.map { name, c in
            "\(name): \(c.added) added, \(c.replaced) replaced, \(c.deleted) deleted"
        }.joined(separator: "\n")
    }

    /// The record's primary key: `id` as a number or a string, else `idStr`.
    private static func key(of record: [String: Any]) -> Int64? {
        for field in ["id", "idStr"] {
            if let number = record[field] as? NSNumber, !(record[field] is Bool) { return number.int64Value }
            if let text = record[field] as? String, let key = Int64(text) { return key }
        }
        return nil
    }

    /// Calls `body` with each newline-terminated line (and a last unterminated one).
    private static func forEachLine(of fileDescriptor: Int32, _ body: (Data) throws -> Void) throws {
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIError("cannot read the export: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            pending.append(contentsOf: buffer[0..<n])
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                try body(pending[start..<newline])
                start = newline + 1
            }
            pending = Data(pending[start...])
        }
        if !pending.isEmpty { try body(pending) }
    }
}
