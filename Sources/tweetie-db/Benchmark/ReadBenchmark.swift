import Foundation
import TweetieSync

/// A read benchmark on the stored tweets: the first page of the timeline, a full decoded scan
/// in timeline order, and the structural page check that ``Store/verify(progress:)`` runs first.
///
/// ```swift
/// let result = try ReadBenchmark(rounds: 20).run(on: store)
/// print(result.scanRecordsPerSecond)
/// ```
struct ReadBenchmark: Sendable {
    /// How many times each measurement is repeated (the best is kept for the scan, the median for
    /// the first page).
    var rounds: Int

    /// A benchmark repeating each measurement `rounds` times.
    ///
    /// ```swift
    /// let benchmark = ReadBenchmark(rounds: 5)
    /// ```
    init(rounds: Int = 5) { self.rounds = max(1, rounds) }

    /// What the run measured.
    struct Result: Sendable, Hashable, Codable {
        /// Tweets scanned.
        var records: Int
        /// Median time to fetch the first 50 rows of the timeline, in seconds.
        var firstPageSeconds: Double
        /// Best time to fetch and decode every tweet in timeline order, in seconds.
        var scanSeconds: Double
        /// Records per second of the best scan.
        var scanRecordsPerSecond: Double
        /// Pages whose structure the page check validated (``Store/checkPageStructure()``).
        var pagesChecked: Int
        /// Best time of the page check over the whole file, in seconds.
        var pageCheckSeconds: Double
    }

    /// Runs the benchmark.
    ///
    /// ```swift
    /// let result = try ReadBenchmark().run(on: store)
    /// ```
    func run(on store: Store) throws -> Result {
        func time(_ body: () throws -> Void) rethrows -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        let page = TweetQueries.timeline(limit: 50)
        var pages: [Double] = []
        for _ in 0..<max(rounds, 11) { pages.append(try time { _ = try store.read { try $0.fetch(page) } }) }
        pages.sort()
        var best = Double.infinity
        var count = 0
        let all = TweetQueries.timeline()
        for _ in 0..<rounds {
            best = min(best, try time { count = try store.read { tx in
                var n = 0
                try tx.forEach(all) { _ in n += 1; return true }
                return n
            } })
        }
        var bestCheck = Double.infinity
        var checked = 0
        for _ in 0..<rounds {
            bestCheck = min(bestCheck, try time { checked = try store.checkPageStructure().pagesChecked })
        }
        return Result(records: count, firstPageSeconds: pages[pages.count / 2], scanSeconds: best,
                      scanRecordsPerSecond: best > 0 ? Double(count) / best : 0,
                      pagesChecked: checked, pageCheckSeconds: bestCheck)
    }
}
