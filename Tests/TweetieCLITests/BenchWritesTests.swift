import Foundation
import Testing
import TweetieSync
import TweetieTestSupport

@Suite("tweetie-db bench writes")
struct BenchWritesTests {
    /// The value of the median by nearest rank, as the benchmark takes it.
    static func nearestRankMedian(_ values: [Double]) -> Double {
        values.sorted()[max(0, Int((0.5 * Double(values.count)).rounded(.up)) - 1)]
    }

    @Test func jsonReportsRoundsPercentilesAndTheRawRatio() throws {
        let result = try CLI.run(["bench", "writes", "--records", "600", "--batch", "50", "--rounds", "4", "--durability", "no-sync",
                                  "--compare", "raw", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONDecoder().decode(BenchWritesSummary.self, from: result.stdout)
        #expect(summary.rounds == 4 && summary.warmUpRounds == 1)
        #expect(summary.records == 600 && summary.batch == 50 && summary.commits == 12 && summary.durability == .noSync)
        #expect(summary.roundRecordsPerSecond.count == 4 && summary.warmUpRecordsPerSecond > 0)
        #expect(summary.minRecordsPerSecond == summary.roundRecordsPerSecond.min())
        #expect(summary.maxRecordsPerSecond == summary.roundRecordsPerSecond.max())
        // The durations' median is a round's, so its rate is one of the rounds' rates (the faster middle one of an even count).
        #expect(summary.recordsPerSecond == summary.roundRecordsPerSecond.sorted()[2])
        #expect(summary.minRecordsPerSecond <= summary.recordsPerSecond && summary.recordsPerSecond <= summary.maxRecordsPerSecond)
        #expect(abs(summary.seconds * summary.recordsPerSecond - 600) < 1e-6 * 600)
        let l = summary.latency
        #expect(l.count == 4 * 12, "every commit of every measured round, the warm-up excluded")
        #expect(0 < l.min && l.min <= l.p50 && l.p50 <= l.p90 && l.p90 <= l.p99 && l.p99 <= l.p999 && l.p999 <= l.max)
        #expect(l.max <= 600 / summary.minRecordsPerSecond * (1 + 1e-9), "no commit takes longer than the slowest round")
        let raw = try #require(summary.raw)
        #expect(raw.minRecordsPerSecond <= raw.recordsPerSecond && raw.recordsPerSecond <= raw.maxRecordsPerSecond && raw.recordsPerSecond > 0)
        #expect(abs(raw.ratio - summary.recordsPerSecond / raw.recordsPerSecond) < 1e-9 * raw.ratio)
        #expect(abs(raw.seconds * raw.recordsPerSecond - 600) < 1e-6 * 600)
        // A reader of the single-round result still decodes it.
        let single = try JSONDecoder().decode(BenchWritesResult.self, from: result.stdout)
        #expect(single.recordsPerSecond == summary.recordsPerSecond && single.commits == 12)
    }

    @Test func tableReportsRoundsPercentilesAndTheRatio() throws {
        let result = try CLI.run(["bench", "writes", "--records", "200", "--batch", "200", "--rounds", "3", "--durability", "no-sync", "--compare", "raw", "--format", "table"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.map { String($0.prefix(12)) } == ["records     ", "rounds      ", "throughput  ", "commit      ", "raw floor   ", "ratio       "], "\(lines)")
        func numbers(_ line: String) -> [Double] {
            line.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
        }
        // "rounds       3 after 1 warm-up, …: A  B  C records/s (warm-up W)"
        let rounds = numbers(String(lines[1].split(separator: ":").last!.split(separator: "(").first!))
        #expect(rounds.count == 3)
        // "throughput   median M records/s (min A, max B)": one commit per round, so no commits/s
        // (a rate of commits only when there is more than one).
        let throughput = numbers(lines[2])
        #expect(throughput.count == 3 && !lines[2].contains("commits/s") && throughput[1] <= throughput[0] && throughput[0] <= throughput[2], "\(lines[2])")
        #expect(throughput[0] == Self.nearestRankMedian(rounds) && throughput[1] == rounds.min() && throughput[2] == rounds.max())
        // "commit       min … p50 … p90 … p99 … p99.9 … max …  (3 commits)"
        let commit = lines[3].components(separatedBy: " ms").dropLast().compactMap { Double($0.split(separator: " ").last!) }
        #expect(commit.count == 6 && commit == commit.sorted(), "\(lines[3])")
        #expect(lines[3].hasSuffix("(3 commits)"))
        #expect(lines[5].contains("× raw mdb_put"))
        let plain = try CLI.run(["bench", "writes", "--records", "100", "--batch", "100", "--rounds", "1", "--durability", "no-sync", "--format", "table"])
        #expect(plain.status == 0 && !plain.output.contains("raw floor") && !plain.output.contains("ratio"))
    }

    @Test(arguments: [
        (["--rounds", "0"], "--rounds must be positive"),
        (["--rounds", "2", "--db", "/tmp/tweetie-bench-never-created"], "--rounds must be 1 with --db"),
        (["--compare", "grdb"], "--compare"),
    ])
    func badOptionsAreRejected(_ options: [String], _ message: String) throws {
        let result = try CLI.run(["bench", "writes", "--records", "10", "--batch", "10"] + options)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/tweetie-bench-never-created"))
    }

    @Test func withDBOneRoundAddsTheRecordsThere() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        let result = try CLI.run(["bench", "writes", "--db", db.path, "--records", "70", "--batch", "20", "--durability", "no-sync", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONDecoder().decode(BenchWritesSummary.self, from: result.stdout)
        #expect(summary.rounds == 1 && summary.latency.count == 4 && summary.raw == nil)
        let store = try TweetieDatabase.open(at: db.path)
        defer { store.close() }
        #expect(try store.read { try $0.count(Tweet.self) } == 70, "the warm-up went elsewhere: only the measured round is in --db")
    }
}
