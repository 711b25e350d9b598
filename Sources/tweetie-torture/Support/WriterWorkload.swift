import Foundation
import TweetieDB
import TweetieSync

/// The writer's view of its own id range, and the operation mix: batches of inserts, upserts
/// that change fields, deletions, mixed transactions, and overwrites of the shared ids.
struct WriterWorkload: Sendable {
    private var versions: [Int64: Int] = [:]
    private var present: [Int64] = []
    private var nextID: Int64
    private var sharedVersion = 0
    private var rng: SplitMix64
    private let sharedIDs: Int
    private let tag: String
    private let maxRecords: Int

    /// Reads the writer's range from the store (a continuing database keeps its records).
    init(store: Store, idBase: Int64, sharedIDs: Int, seed: UInt64, tag: String, maxRecords: Int) throws {
        self.sharedIDs = sharedIDs
        self.tag = tag
        self.maxRecords = maxRecords
        rng = SplitMix64(seed: seed)
        nextID = idBase
        var versions: [Int64: Int] = [:]
        var next = idBase
        try store.read { tx in
            try tx.forEach(Query<Tweet>()) { tweet in
                if tweet.id >= idBase, tweet.id < idBase + 1_000_000 {
                    versions[tweet.id] = tweet.favoriteCount
                    next = max(next, tweet.id + 1)
                }
                return true
            }
        }
        self.versions = versions
        present = versions.keys.sorted()
        nextID = next
    }

    mutating func nextPlan() -> WritePlan {
        let roll = rng.int(in: 0...99)
        if present.count < 20 { return inserts(rng.int(in: 5...20)) }
        if present.count > maxRecords { return deletes(rng.int(in: 5...20)) }
        if sharedIDs > 0 && roll < 20 { return shared() }
        switch roll {
        case ..<45: return inserts(rng.int(in: 1...20))
        case ..<70: return upserts(rng.int(in: 1...10))
        case ..<85: return deletes(rng.int(in: 1...5))
        default: return mixed()
        }
    }

    /// Updates the view after the plan committed.
    mutating func didCommit(_ plan: WritePlan) {
        var deleted: Set<Int64> = []
        for action in plan.actions {
            switch action {
            case .insert(let tweet), .overwrite(let tweet):
                guard tweet.id > Int64(sharedIDs) else { continue }
                if versions[tweet.id] == nil { present.append(tweet.id) }
                versions[tweet.id] = tweet.favoriteCount
                nextID = max(nextID, tweet.id + 1)
            case .delete(let id):
                versions[id] = nil
                deleted.insert(id)
            }
        }
        if !deleted.isEmpty { present.removeAll { deleted.contains($0) } }
    }

    private mutating func newTweets(_ count: Int, into plan: inout WritePlan) {
        for offset in 0..<Int64(count) {
            plan.insert(WorkloadTweets.tweet(id: nextID + offset, version: 0, tag: tag))
        }
    }

    /// `count` distinct present ids, not in `excluded`.
    private mutating func pickPresent(_ count: Int, excluding excluded: Set<Int64> = []) -> [Int64] {
        var chosen: [Int64] = []
        var seen = excluded
        var attempts = 0
        while chosen.count < count, attempts < count * 8, !present.isEmpty {
            attempts += 1
            let id = present[rng.int(in: 0...(present.count - 1))]
            if seen.insert(id).inserted { chosen.append(id) }
        }
        return chosen
    }

    private mutating func inserts(_ count: Int) -> WritePlan {
        var plan = WritePlan(op: "insert")
        newTweets(count, into: &plan)
        return plan
    }

    private mutating func upserts(_ count: Int) -> WritePlan {
        var plan = WritePlan(op: "upsert")
        for id in pickPresent(count) {
            plan.overwrite(WorkloadTweets.tweet(id: id, version: (versions[id] ?? 0) + 1, tag: tag))
        }
        return plan
    }

    private mutating func deletes(_ count: Int) -> WritePlan {
        var plan = WritePlan(op: "delete")
        for id in pickPresent(count) { plan.delete(id) }
        return plan
    }

    private mutating func mixed() -> WritePlan {
        var plan = WritePlan(op: "mixed")
        newTweets(rng.int(in: 1...5), into: &plan)
        let upserted = pickPresent(rng.int(in: 1...5))
        for id in upserted {
            plan.overwrite(WorkloadTweets.tweet(id: id, version: (versions[id] ?? 0) + 1, tag: tag))
        }
        for id in pickPresent(rng.int(in: 1...3), excluding: Set(upserted)) { plan.delete(id) }
        return plan
    }

    private mutating func shared() -> WritePlan {
        var plan = WritePlan(op: "shared")
        sharedVersion += 1
        var ids: Set<Int64> = []
        for _ in 0..<rng.int(in: 1...3) { ids.insert(Int64(rng.int(in: 1...sharedIDs))) }
        for id in ids.sorted() { plan.overwrite(WorkloadTweets.tweet(id: id, version: sharedVersion, tag: tag)) }
        return plan
    }
}
