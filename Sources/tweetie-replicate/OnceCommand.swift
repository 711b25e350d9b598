import ArgumentParser
import Foundation
import TweetieReplication
import TweetieSync

struct OnceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "once",
        abstract: "Push what this store wrote, then pull what the others wrote, once, and exit.",
        discussion: "The database is created when missing (a new device downloads every record, with a progress bar on a terminal). Prints what was pushed and pulled, as a line of text on a terminal, else (or with --format json) one JSON object.")

    @OptionGroup var database: ReplicaDatabaseOptions
    @OptionGroup var postgres: PostgresOptions

    @OptionGroup var replication: ReplicatorOptions

    @Option(help: SummaryFormat.help)
    var format: SummaryFormat?

    func run() async throws {
        do {
            let (replicator, _) = try await replication.replicator(database: database, postgres: postgres)
            defer { replicator.store.close() }
            let bar = ProgressBar("downloading")
            let (pushed, pulled) = try await replicator.once { done, total in bar.update(done, of: total) }
            bar.finish()
            switch SummaryFormat.resolve(format) {
            case .table:
                print("pushed \(pushed.pushed) records (\(pushed.adopted) already there, \(pushed.conflicts) conflicts resolved) in \(pushed.batches) batches; pulled \(pulled.changes) changes, applied \(pulled.applied) records in \(pulled.batches) batches\(pulled.snapshot ? " (from a snapshot)" : "")")
            case .json:
                struct Summary: Encodable { var push: PushSummary; var pull: PullSummary }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                print(String(decoding: try encoder.encode(Summary(push: pushed, pull: pulled)), as: UTF8.self))
            }
        } catch {
            fail(error)
        }
    }
}
