import ArgumentParser
import Foundation
import TweetieSync

extension TweetsCommand {
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete stored tweets by id, all or none.",
            discussion: """
                Examples:
                  tweetie-db tweets delete 1071510262772662339 1071510262772662340
                  tweetie-db tweets delete --dry-run 1071510262772662339
                  tweetie-db tweets delete --force 1071510262772662339      (in a script)

                On a terminal it asks first; elsewhere it needs --force. --dry-run prints what it would delete.
                """)

        @OptionGroup var database: ChangeDatabaseOptions

        @OptionGroup var destructive: DestructiveOptions

        @Argument(help: "The ids of the tweets to delete.")
        var ids: [Int64]

        func validate() throws {
            guard !ids.isEmpty else { throw ValidationError("give at least one tweet id.") }
        }

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                let ids = Array(Set(self.ids)).sorted()
                func checkAllExist(_ tx: some StoreReading) throws {
                    let missing = try ids.filter { try !tx.contains(Tweet.self, key: $0) }
                    guard missing.isEmpty else {
                        throw CLIError("no tweet with id \(missing.map(String.init).joined(separator: ", ")); nothing was deleted")
                    }
                }
                try store.read(checkAllExist)
                let action = "delete \(counted(ids.count, "tweet")) from \(store.path)"
                if destructive.dryRun {
                    Out.line("would \(action) (ids \(ids.map(String.init).joined(separator: ", "))); nothing was changed")
                    return
                }
                try destructive.confirm(action)
                try store.write { tx in
                    try checkAllExist(tx)
                    for id in ids { try tx.delete(Tweet.self, key: id) }
                }
                Out.error("deleted \(counted(ids.count, "tweet"))")
            }
        }
    }
}
