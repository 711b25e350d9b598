import ArgumentParser
import Foundation
import TweetieSync

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

    @Option(help: "The output format: table or json.")
    var format: StatsFormat = .table

    enum StatsFormat: String, ExpressibleByArgument, CaseIterable { case table, json }

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
            if format == .json {
                let encoder = RecordJSON.encoder()
                encoder.outputFormatting.insert(.prettyPrinted)
                Out.line(String(decoding: try encoder.encode(StatsJSON(statistics: stats, freeList: reclaimable)), as: UTF8.self))
                return
            }
            var table = TextTable(headers: ["collection", "schema", "records", "index entries", "size"])
            for c in stats.collections {
                let indexes = c.indexEntries.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                table.rows.append([c.name, "v\(c.schemaVersion)", "\(c.records)", indexes.isEmpty ? "-" : indexes, formatBytes(c.bytes)])
            }
            Out.write(table.render())
            let env = stats.info
            Out.line()
            Out.line("database       \(stats.path)")
            Out.line("file size      \(formatBytes(stats.fileSize))")
            Out.line("map            \(formatBytes(env.usedBytes)) used of \(formatBytes(env.mapSize)) (page size \(env.pageSize))")
            Out.line("free list      \(reclaimable.pages) pages (\(formatBytes(reclaimable.bytes))) reusable by later writes; a backup leaves them out")
            Out.line("last txn       \(env.lastTransactionID)")
            Out.line("readers        \(env.readersInUse) of \(env.maxReaders) slots in use")
            Out.line("commit wake-up \(store.commitWakeUp) (for observers of this process)")
            if let first = stats.changeLogFirst, let last = stats.changeLogLast {
                Out.line("change log     \(first)…\(last) (keeps the last \(stats.changeLogRetention))")
            } else {
                Out.line("change log     empty (keeps the last \(stats.changeLogRetention))")
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
