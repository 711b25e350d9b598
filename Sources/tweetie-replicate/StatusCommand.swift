import ArgumentParser
import Foundation
import TweetieReplication

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print where this database's replication stands: cursors, backlog, lag and the last error.",
        discussion: "Reads the database (which must exist; it is opened read-only and never written) and asks the server; when the server cannot be reached, the local part is printed with the reason, and the exit status is 69. It prints lines of text on a terminal, else (or with --format json) one JSON object with the same fields.")

    @OptionGroup var database: ReplicaDatabaseOptions
    @OptionGroup var postgres: PostgresOptions

    @Option(help: SummaryFormat.help)
    var format: SummaryFormat?

    func run() async throws {
        do {
            let url = try postgres.resolved()
            let store = try database.openToRead()
            defer { store.close() }
            let replicator = try Replicator(store: store, collections: ReplicaDatabaseOptions.collections,
                                            configuration: ReplicatorConfiguration(url: url))
            let status = try await replicator.status()
            switch SummaryFormat.resolve(format) {
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                encoder.dateEncodingStrategy = .iso8601
                print(String(decoding: try encoder.encode(status), as: UTF8.self))
            case .table:
                print("device:           \(status.deviceID?.uuidString ?? "none (never replicated)")")
                print("pushed up to:     change \(status.pushedSequence) of \(status.lastSequence) (\(status.backlogEntries) entries after it)")
                print("pulled up to:     \(status.pulledTxid.map { "transaction \($0), change \(status.pulledChangeID)" } ?? "nothing yet")")
                if let server = status.server {
                    print("server schema:    version \(server.schemaVersion)")
                    print("not yet pulled:   \(server.unpulledChanges) changes\(server.unpulledChanges > 0 ? String(format: ", the oldest %.1f s old", server.lagSeconds) : "")")
                    print("last error:       \(server.lastError ?? "none")")
                    print("devices:          \(server.devices); conflicts resolved: \(server.conflicts)")
                }
                if let error = status.serverError { print("server:           unreachable: \(error)") }
            }
            if status.serverError != nil { throw ExitCode(69) }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            fail(error)
        }
    }
}
