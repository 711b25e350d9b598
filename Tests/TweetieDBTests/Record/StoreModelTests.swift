import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// Random transactions checked, after every commit, against a plain in-memory model: the records,
/// every query shape, and the exact inserted / modified / deleted sets the store recorded.
@Suite("Object store against a model")
struct StoreModelTests {
    struct Model {
        var records: [Int64: Post] = [:]

        func expected(_ filterAuthor: String?, sort: Query<Post>.Sort, offset: Int, limit: Int?, predicate: ((Post) -> Bool)?) -> [Int64] {
            var rows = records.values.filter { p in (filterAuthor.map { p.author == $0 } ?? true) && (predicate?(p) ?? true) }
            switch sort {
            case .primaryKey(let order):
                rows.sort { order == .ascending ? $0.id < $1.id : $0.id > $1.id }
            case .index(let name, let order):
                // created index: newest first, ties by id ascending; author index: author asc, created desc, id asc.
                func byCreated(_ a: Post, _ b: Post) -> Bool {
                    if a.created != b.created { return a.created > b.created }
                    return a.id < b.id
                }
                func byAuthor(_ a: Post, _ b: Post) -> Bool {
                    if a.author != b.author { return Array(a.author.utf8).lexicographicallyPrecedes(Array(b.author.utf8)) }
                    return byCreated(a, b)
                }
                let asc: (Post, Post) -> Bool = name == "created" ? byCreated : byAuthor
                rows.sort { order == .ascending ? asc($0, $1) : asc($1, $0) }
            }
            let page = rows.dropFirst(offset)
            return (limit.map { Array(page.prefix($0)) } ?? Array(page)).map(\.id)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func randomTransactionsMatchTheModel(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        var model = Model()
        let authors = ["ann", "bob", "cy", "dee", "ann\u{0}x"]
        func randomPost(_ id: Int64) -> Post {
            Post(id: id, author: authors.randomElement(using: &rng)!, text: ["a", "bb", "ccc"].randomElement(using: &rng)!,
                 created: Date(timeIntervalSince1970: Double(Int.random(in: 0..<20, using: &rng)) * 3600), likes: Int.random(in: 0..<3, using: &rng))
        }
        struct Abort: Error {}

        for round in 0..<150 {
            var next = model
            var rewritten: Set<Int64> = []
            let willAbort = Int.random(in: 0..<10, using: &rng) == 0
            let opCount = Int.random(in: 1...8, using: &rng)
            // Decide the operations against the model first, then replay them in the transaction.
            var plan: [(kind: Int, post: Post?, id: Int64, policy: UpdatePolicy, author: String)] = []
            for _ in 0..<opCount {
                let id = Int64.random(in: 0..<40, using: &rng)
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<4:
                    // Upsert with a random policy; half the time an identical copy of the stored record.
                    let policy: UpdatePolicy = [.all, .modified, .modified].randomElement(using: &rng)!
                    let post = (next.records[id] != nil && Bool.random(using: &rng)) ? next.records[id]! : randomPost(id)
                    plan.append((0, post, id, policy, ""))
                    if let existing = next.records[id] {
                        if policy == .all || existing != post { rewritten.insert(id) }
                    } else if model.records[id] != nil {
                        rewritten.insert(id) // deleted earlier in this transaction, now back: modified
                    }
                    next.records[id] = post
                case 4..<6:
                    if next.records[id] == nil {
                        let post = randomPost(id)
                        plan.append((1, post, id, .error, ""))
                        if model.records[id] != nil { rewritten.insert(id) } // deleted earlier in this transaction
                        next.records[id] = post
                    }
                case 6..<9:
                    plan.append((2, nil, id, .error, ""))
                    next.records[id] = nil
                default:
                    let author = authors.randomElement(using: &rng)!
                    plan.append((3, nil, id, .error, author))
                    for (key, post) in next.records where post.author == author { next.records[key] = nil }
                }
            }
            let result: TransactionChanges?
            do {
                result = try store.write { tx in
                    for op in plan {
                        switch op.kind {
                        case 0: try tx.add(op.post!, update: op.policy)
                        case 1: try tx.add(op.post!, update: .error)
                        case 2: try tx.delete(Post.self, key: op.id)
                        default: try tx.delete(Query<Post>().filter(Post.byAuthor, equals: op.author))
                        }
                    }
                    if willAbort { throw Abort() }
                    return tx.changes
                }
            } catch is Abort {
                result = nil
            }
            if let changes = result {
                let before = Set(model.records.keys), after = Set(next.records.keys)
                let inserted = after.subtracting(before)
                let deleted = before.subtracting(after)
                let modified = before.intersection(after).filter { rewritten.contains($0) }
                let enc = { (ids: Set<Int64>) in Set(ids.map { Post.encode(primaryKey: $0) }) }
                #expect(changes.keys(of: "posts", kind: .inserted) == enc(inserted), "round \(round)")
                #expect(changes.keys(of: "posts", kind: .deleted) == enc(deleted), "round \(round)")
                #expect(changes.keys(of: "posts", kind: .modified) == enc(Set(modified)), "round \(round)")
                model = next
            }
            // The stored state equals the model, through every query shape.
            let stored = try store.read { try $0.fetch(Query<Post>()) }
            #expect(stored == model.records.values.sorted { $0.id < $1.id }, "round \(round)")
            #expect(try store.read { try $0.count(Post.self) } == model.records.count)
            let author: String? = Bool.random(using: &rng) ? authors.randomElement(using: &rng)! : nil
            let sorts: [Query<Post>.Sort] = [.primaryKey(.ascending), .primaryKey(.descending), .index("created", .ascending),
                                              .index("created", .descending), .index("author", .ascending), .index("author", .descending)]
            let sort = sorts.randomElement(using: &rng)!
            let offset = Int.random(in: 0..<4, using: &rng)
            let limit: Int? = Bool.random(using: &rng) ? Int.random(in: 0..<10, using: &rng) : nil
            let likes = Int.random(in: 0..<3, using: &rng)
            let usePredicate = Bool.random(using: &rng)
            var query = Query<Post>()
            if let author { query = query.filter(Post.byAuthor, equals: author) }
            if usePredicate { query = query.filter { $0.likes == likes } }
            switch sort {
            case .primaryKey(let order): query = query.sorted(byPrimaryKey: order)
            case .index(let name, let order): query = query.sorted(byIndex: name, order)
            }
            query = query.offset(offset).limit(limit)
            let got = try store.read { try $0.fetch(query) }.map(\.id)
            let want = model.expected(author, sort: sort, offset: offset, limit: limit, predicate: usePredicate ? { $0.likes == likes } : nil)
            #expect(got == want, "round \(round): author \(author ?? "-") sort \(sort) offset \(offset) limit \(String(describing: limit))")
            // The lazy sequence gives the same records, and stops early when asked.
            let lazy = try store.read { tx in Array(try tx.records(query)).map(\.id) }
            #expect(lazy == want, "round \(round): lazy sequence")
            let firstTwo = try store.read { tx in Array(try tx.records(query).prefix(2)).map(\.id) }
            #expect(firstTwo == Array(want.prefix(2)))
        }
        let report = try store.verify()
        #expect(report.problems.isEmpty)
    }
}
