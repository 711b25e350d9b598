import ArgumentParser
import Foundation
import TweetieReplication

struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Prune the server's change table now, and print what went.",
        discussion: "Deletes the changes that every device seen within --retention has pulled, and every change older than --retention (a device away longer reads a snapshot when it comes back, and loses nothing it wrote); removes the tombstones whose delete went and the conflicts older than --retention. run does this every minute on its own; prune is for a database nobody follows, or a cron job. The database must exist: the server counts its device as present.")

    @OptionGroup var database: ReplicaDatabaseOptions
    @OptionGroup var postgres: PostgresOptions
    @OptionGroup var retention: RetentionOptions

    @Option(help: SummaryFormat.help)
    var format: SummaryFormat?

    func run() async throws {
        do {
            let url = try postgres.resolved()
            try await Replicator.checkServer(url: url)
            let store = try database.openExisting()
            defer { store.close() }
            let replicator = try Replicator(store: store, collections: ReplicaDatabaseOptions.collections,
                                            configuration: ReplicatorConfiguration(url: url))
            let summary = try await replicator.prune(retention: retention.retention.duration)
            switch SummaryFormat.resolve(format) {
            case .table:
                let horizon = summary.horizon.map { "transaction \($0.txid), change \($0.id)" } ?? "nothing pruned yet"
                print("pruned \(summary.prunedChanges) changes, \(summary.removedTombstones) tombstones, \(summary.removedConflicts) conflicts; horizon: \(horizon)")
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                print(String(decoding: try encoder.encode(summary), as: UTF8.self))
            }
        } catch {
            fail(error)
        }
    }
}
