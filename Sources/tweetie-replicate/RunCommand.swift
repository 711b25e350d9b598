import ArgumentParser
import Foundation
import TweetieReplication
#if canImport(Glibc)
import Glibc
#endif

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Replicate continuously until SIGINT or SIGTERM.",
        discussion: "Pushes after every commit to the database (by this process or another, such as tweetie-db sync), pulls when PostgreSQL notifies a change, and both every --poll seconds; every minute, it prunes the server's change table (see prune). When the server goes away (a restart, a cut connection), it keeps trying with a growing delay, up to 5 seconds, and says so on stderr; local writes go on meanwhile. The first connection must succeed: a wrong URL, password or schema exits at once. Prints one line per round that moved something. The database is created when missing.")

    @OptionGroup var database: ReplicaDatabaseOptions
    @OptionGroup var postgres: PostgresOptions

    @Option(help: "Seconds between looks for changes when nothing woke the replicator.")
    var poll = 5.0

    @OptionGroup var replication: ReplicatorOptions

    @Option(help: "The device's name in tweetie.devices (default: the host name).")
    var name: String?

    @OptionGroup var retention: RetentionOptions

    @Flag(help: "Never prune the server's change table (another device or a cron job with prune does).")
    var noPrune = false

    func validate() throws {
        guard poll >= 0.05, poll <= 3_600 else { throw ValidationError("--poll must be from 0.05 to 3600 seconds, got \(poll).") }
    }

    func run() async throws {
        do {
            let (replicator, url) = try await replication.replicator(database: database, postgres: postgres) { configuration in
                configuration.pollInterval = .milliseconds(Int64(poll * 1000))
                if let name { configuration.deviceName = name }
                configuration.retention = noPrune ? nil : retention.retention.duration
            }
            defer { replicator.store.close() }
            let task = Task {
                try await replicator.run { event in
                    switch event {
                    case .round(let push, let pull):
                        FileHandle.standardOutput.write(Data("pushed \(push.pushed) (\(push.conflicts) conflicts), pulled \(pull.changes) changes, applied \(pull.applied)\n".utf8))
                    case .retrying(let error, let delay):
                        FileHandle.standardError.write(Data("tweetie-replicate: \(error.message) Retrying in \(delay).\n".utf8))
                    case .reconnected:
                        FileHandle.standardError.write(Data("tweetie-replicate: connected again\n".utf8))
                    case .pruned(let summary):
                        FileHandle.standardOutput.write(Data("pruned \(summary.prunedChanges) changes and \(summary.removedTombstones) tombstones from the server\n".utf8))
                    }
                }
            }
            let signals = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number)
                source.setEventHandler { task.cancel() }
                source.resume()
                return source
            }
            defer { signals.forEach { $0.cancel() } }
            let device = try await replicator.deviceID()
            FileHandle.standardOutput.write(Data("tweetie-replicate: replicating \(database.resolvedPath) through \(url) (device \(device))\n".utf8))
            do {
                try await task.value
            } catch let error as ReplicationError {
                await replicator.reportError(error)
                throw error
            }
        } catch {
            fail(error)
        }
    }
}
