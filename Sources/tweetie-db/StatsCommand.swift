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
            let stats = try store.statistics()
            if format == .json {
                let encoder = RecordJSON.encoder()
                encoder.outputFormatting.insert(.prettyPrinted)
                Out.line(String(decoding: try encoder.encode(stats), as: UTF8.self))
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
