import ArgumentParser
import Foundation
import TweetieDB
import TweetieSync

/// `tweetie-torture reader`: short read transactions in a loop, until killed.
struct ReaderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reader",
        abstract: "Run short read transactions in a loop (read every tweet in index order), until killed.",
        discussion: "Prints 'ready' after the first read, then 'reads <n> <records>' every 100 reads. Opens the database read-only.")

    @Option(help: "The database directory.")
    var db: String

    @Option(name: .customLong("hold-ms"), help: "How long each read transaction stays open after reading, in milliseconds.")
    var holdMilliseconds: Int = 2

    @Option(help: "Stop after this many seconds (default: run until killed).")
    var seconds: Double?

    func run() throws {
        let store: Store
        do {
            store = try TortureDatabase.open(db, readOnly: true)
        } catch {
            throw TortureError("reader cannot open \(db): \(error)")
        }
        defer { store.close() }
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        var reads = 0
        while deadline.map({ Date() < $0 }) ?? true {
            let records = try store.read { tx -> Int in
                var count = 0
                try tx.forEach(Query<Tweet>().sorted(by: Tweet.byCreated)) { _ in
                    count += 1
                    return true
                }
                if holdMilliseconds > 0 { usleep(UInt32(holdMilliseconds) * 1000) }
                return count
            }
            reads += 1
            if reads == 1 { Out.line("ready") }
            if reads % 100 == 0 { Out.line("reads \(reads) \(records)") }
        }
        Out.line("done \(reads)")
    }
}
