import ArgumentParser
import Foundation
import TweetieDB
import TweetieSync

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Show the collections: their record type, fields, indexes and schema versions.",
        discussion: """
            Examples:
              tweetie-db schema
              tweetie-db schema --format json | jq '.[] | {name, indexes}'

            Like sqlite3's .schema. Fields are the stored record's, in order; their JSON form \
            (tweets list, users, export) also carries a string twin of every id (idStr, \
            authorIdStr, inReplyToIdStr).
            """)

    @OptionGroup var database: ReadDatabaseOptions

    @Option(help: OutputFormat.help(for: .list))
    var format: OutputFormat?

    /// One collection, as `schema` prints it.
    struct Collection: Encodable {
        struct Field: Encodable { var name: String, type: String, primaryKey: Bool }
        struct IndexInfo: Encodable { var name: String, unique: Bool, orders: [TweetieDB.SortOrder] }
        var name: String
        var recordType: String
        var schemaVersion: Int
        var records: Int
        var fields: [Field]
        var indexes: [IndexInfo]
    }

    func run() throws {
        try reportingErrors {
            let store = try database.openExisting()
            defer { store.close() }
            let stats = try store.statistics()
            let sampleDate = Date(timeIntervalSince1970: 0)
            let collections = [
                Self.describe(Tweet(id: 0, text: "", name: "", username: "", authorId: 0, created: sampleDate, imageURL: "",
                                    retweetCount: 0, favoriteCount: 0), primaryKey: "id", stats: stats),
                Self.describe(User(id: 0, name: "", username: "", about: "", url: "", imageURL: ""), primaryKey: "id", stats: stats),
            ].sorted { $0.name < $1.name }
            try printRecords(collections, format: OutputFormat.resolve(format, for: .list)) { collections in
                collections.map { c in
                    var table = TextTable(headers: ["field", "type", ""])
                    for field in c.fields { table.rows.append([field.name, field.type, field.primaryKey ? "primary key" : ""]) }
                    let indexes = c.indexes.map { "  index \($0.name)\($0.unique ? " unique" : "") (\($0.orders.map { $0.rawValue }.joined(separator: ", ")))" }
                    let lines = ["collection \(c.name): \(c.recordType) records, schema version \(c.schemaVersion), \(counted(c.records, "record"))"]
                        + table.render(width: Terminal.width.map { $0 - 2 }).split(separator: "\n").map { "  " + $0 } + indexes
                    // Within the width, like the table: the prose lines wrap.
                    return lines.flatMap { line in Terminal.width.map { DisplayWidth.wrap(line, to: $0) } ?? [line] }.map { $0 + "\n" }.joined()
                }.joined(separator: "\n")
            }
        }
    }

    /// The fields (by reflection on `sample`), indexes and counts of `R`'s collection.
    static func describe<R: Record>(_ sample: R, primaryKey: String, stats: StoreStatistics) -> Collection {
        let fields = Mirror(reflecting: sample).children.compactMap { child -> Collection.Field? in
            guard let label = child.label else { return nil }
            return Collection.Field(name: label, type: typeName(type(of: child.value)), primaryKey: label == primaryKey)
        }
        let stored = stats.collections.first { $0.name == R.collectionName }
        return Collection(name: R.collectionName, recordType: String(describing: R.self), schemaVersion: stored?.schemaVersion ?? R.schemaVersion,
                          records: stored?.records ?? 0, fields: fields,
                          indexes: R.indexes.map { .init(name: $0.name, unique: $0.isUnique, orders: $0.orders) })
    }

    /// `Optional<Int64>` as `Int64?`, `Array<String>` as `[String]`.
    static func typeName(_ type: Any.Type) -> String {
        var name = String(describing: type)
        if name.hasPrefix("Optional<"), name.hasSuffix(">") { name = String(name.dropFirst(9).dropLast()) + "?" }
        if name.hasPrefix("Array<"), name.hasSuffix(">") { name = "[" + String(name.dropFirst(6).dropLast()) + "]" }
        return name
    }
}
