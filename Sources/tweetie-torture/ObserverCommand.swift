import ArgumentParser
import Foundation
import TweetieDB
import TweetieSync

/// `tweetie-torture observer`: consumes a live query and applies every changeset to its own copy.
struct ObserverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "observer",
        abstract: "Observe every tweet (newest first), apply each changeset to a copy, and print the copy's digest.",
        discussion: "Prints 'state <sequence> <rows> <digest> <mismatches>' after the initial results and after every applied changeset; 'mismatches' counts changesets whose application did not give exactly the delivered results. Runs until killed.")

    @Option(help: "The database directory.")
    var db: String

    func run() async throws {
        let store: Store
        do {
            store = try TortureDatabase.open(db, readOnly: true)
        } catch {
            throw TortureError("observer cannot open \(db): \(error)")
        }
        defer { store.close() }
        var copy: [(id: Int64, checksum: UInt64)] = []
        var mismatches = 0
        for try await change in store.observe(TortureDatabase.observedQuery) {
            let results = change.results
            if change.isInitial {
                copy = results.map { (id: $0.id, checksum: Digest.checksum($0)) }
            } else {
                do {
                    try change.changeset.validate(oldCount: copy.count, newCount: results.count)
                } catch {
                    throw TortureError("observer received an invalid changeset at sequence \(change.sequence): \(error)")
                }
                copy = change.changeset.apply(to: copy) { (id: results[$0].id, checksum: Digest.checksum(results[$0])) }
            }
            let delivered = results.map { (id: $0.id, checksum: Digest.checksum($0)) }
            if Digest.ofRows(delivered) != Digest.ofRows(copy) { mismatches += 1 }
            Out.line("state \(change.sequence) \(copy.count) \(Digest.hex(Digest.ofRows(copy))) \(mismatches)")
        }
    }
}
