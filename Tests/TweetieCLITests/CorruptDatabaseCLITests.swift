import Foundation
import Testing
import TweetieTestSupport

/// `tweetie-db verify` on databases with random bytes over one page: LMDB itself may crash on
/// such a page (SIGSEGV, or an assertion abort in mdb.c), so verify checks the page structure
/// first (and, as a second safety net, runs in a child process); it must always end with a clear
/// sentence and exit status 0 (page unused) or 3 (corrupt).
@Suite("tweetie-db verify on corrupted pages")
struct CorruptDatabaseCLITests {
    @Test func randomBytesOverAPageAreReportedNeverCrash() throws {
        let db = try StoreCommandsTests.seeded(1_500)
        defer { db.remove() }
        let clean = try CLI.run(["verify", "--format", "table", "--db", db.path])
        #expect(clean.status == 0 && clean.output.hasPrefix("ok: 1500 tweets"), "\(clean.stderr)")
        let original = try Data(contentsOf: URL(fileURLWithPath: db.path + "/data.mdb"))
        let pages = original.count / 4_096
        var random = SeededRandom(seed: 2026)
        var crashed = 0, reported = 0
        for _ in 0..<12 {
            var data = original
            let page = 2 + Int(random.next() % UInt64(pages - 2))
            for offset in (page * 4_096)..<((page + 1) * 4_096) { data[offset] = UInt8(truncatingIfNeeded: random.next()) }
            try data.write(to: URL(fileURLWithPath: db.path + "/data.mdb"))
            let result = try CLI.run(["verify", "--format", "table", "--db", db.path], timeout: 60)
            let message = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(result.status == 0 || result.status == 3, "page \(page): status \(result.status), \(message)")
            if result.status == 3 {
                #expect(!message.isEmpty && !message.contains("Backtracing"), "page \(page): \(message)")
                if message.contains("crashed the checking process") {
                    crashed += 1
                    #expect(message.contains("is corrupt") && message.contains("restore the database from a backup"))
                } else {
                    reported += 1
                }
            } else {
                #expect(result.output.hasPrefix("ok:"), "page \(page)")
            }
        }
        #expect(crashed + reported > 0, "random bytes over 12 pages were never noticed")
        #expect(crashed == 0, "the page check must report a damaged page before LMDB can crash on it")
    }
}
