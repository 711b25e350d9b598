import ArgumentParser
import Foundation
import TweetieSync

// StatsCommand, with StatsJSON: the shape of its `--format json` report, which nothing else uses.

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show records, index entries, sizes, transactions, readers and the change log.",
        discussion: """
            Examples:
              tweetie-db stats
              tweetie-db stats --format json | jq '.collections[] | {name, records}'
            """)

    @OptionGroup var database: ReadDatabaseOptions

    @Option(help: OutputFormat.help(for: .report))
    var format: OutputFormat?

    func run() throws {
        try reportingErrors {
            let store = try database.openExisting()
            defer { store.close() }
            var stats = try store.statistics()
            // The statistics are read in a read transaction, whose reader slot they count: count
            // the readers again now that it has ended, so that an idle database shows 0.
            stats.info.readersInUse = store.info().readersInUse
            let free = try store.freeList()
            let reclaimable = StatsJSON.FreeSpace(pages: free.pageCount, bytes: free.pageCount * stats.info.pageSize)
            try printRecord(StatsJSON(statistics: stats, freeList: reclaimable), format: OutputFormat.resolve(format, for: .report)) {
                var table = TextTable(headers: ["collection", "schema", "records", "index entries", "size"])
                for c in stats.collections {
                    let indexes = c.indexEntries.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                    table.rows.append([c.name, "v\(c.schemaVersion)", "\(c.records)", indexes.isEmpty ? "-" : indexes, formatBytes(c.bytes)])
                }
                let env = stats.info
                let changeLog = stats.changeLogFirst.flatMap { first in stats.changeLogLast.map { "\(first)…\($0)" } } ?? "empty"
                return table.render() + "\n" + fieldTable([
                    ("database", stats.path),
                    ("file size", formatBytes(stats.fileSize)),
                    ("map", "\(formatBytes(env.usedBytes)) used of \(formatBytes(env.mapSize)) (page size \(env.pageSize))"),
                    ("free list", "\(reclaimable.pages) pages (\(formatBytes(reclaimable.bytes))) reusable by later writes; a backup leaves them out"),
                    ("last txn", "\(env.lastTransactionID)"),
                    ("readers", "\(env.readersInUse) of \(env.maxReaders) slots in use"),
                    ("commit wake-up", "\(store.commitWakeUp) (for observers of this process)"),
                    ("change log", "\(changeLog) (keeps the last \(stats.changeLogRetention))"),
                ])
            }
        }
    }
}

/// `stats --format json`: the store's statistics with the free list's size beside them
/// (`"freeList":{"bytes":…,"pages":…}`), like `mdb_stat -f`.
struct StatsJSON: Encodable {
    struct FreeSpace: Encodable {
        var pages: Int
        var bytes: Int
    }

    var statistics: StoreStatistics
    var freeList: FreeSpace

    private enum CodingKeys: String, CodingKey { case freeList }

    func encode(to encoder: any Encoder) throws {
        try statistics.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(freeList, forKey: .freeList)
    }
}
