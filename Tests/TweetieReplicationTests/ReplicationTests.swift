import Foundation
import Testing
import TweetieDB
@testable import TweetieReplication
import TweetieSync
import TweetieTestSupport

/// Replication against a real PostgreSQL server (`make test` starts one; see PostgresTestServer).
extension PostgresSuites {
@Suite("Replication", .serialized)
struct ReplicationTests {
    @Test func installIsIdempotentAndVersioned() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        try await Replicator.installSchema(url: fixture.url)
        #expect(try fixture.psql("SELECT max(version) FROM tweetie.schema_migrations") == "1")
        try fixture.psql("INSERT INTO tweetie.schema_migrations (version) VALUES (99)")
        await #expect {
            try await Replicator.checkServer(url: fixture.url)
        } throws: { error in
            let error = error as? ReplicationError
            return error?.code == .schemaTooNew && error?.message.contains("version 99") == true
        }
    }

    @Test func twoStoresConverge() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let a = try fixture.store(), b = try fixture.store()
        let ra = try fixture.replicator(a), rb = try fixture.replicator(b)
        try await a.write { tx in for id in 1...50 { try tx.add(tweet(Int64(id), "a\(id)")) } }
        try await b.write { tx in for id in 40...80 { try tx.add(tweet(Int64(id), "b\(id)")) } }
        try await b.write { tx in try tx.add(User(id: 9, name: "Ann", username: "ann", about: "", url: "", imageURL: "")) }
        try await ra.once()
        try await rb.once()
        try await ra.once()
        let contentsA = try ReplicationFixture.contents(of: a)
        #expect(contentsA.count == 81)
        #expect(contentsA == (try ReplicationFixture.contents(of: b)))
        // b pushed after a: its values of 40...50 won, and each overwrite is a logged conflict.
        #expect(try await a.read { try $0.get(Tweet.self, key: 45)?.text } == "b45")
        #expect(try fixture.psql("SELECT count(*) FROM tweetie.conflicts WHERE resolution = 'last-writer-wins'") == "11")
        // Deletes and edits travel too; nothing is pushed back (echo).
        try await a.write { tx in
            _ = try tx.delete(Tweet.self, key: 1)
            var edited = try #require(try tx.get(Tweet.self, key: 2))
            edited.text = "edited"
            try tx.add(edited, update: .all)
        }
        let pushed = try await ra.once()
        #expect(pushed.push.pushed == 2)
        let pulled = try await rb.once()
        #expect(pulled.pull.applied == 2 && pulled.push.pushed == 0)
        #expect(try await b.read { try $0.get(Tweet.self, key: 1) } == nil)
        #expect(try await b.read { try $0.get(Tweet.self, key: 2)?.text } == "edited")
        let again = try await ra.once()
        #expect(again.push.pushed == 0 && again.pull.applied == 0, "a's own changes come back as nothing to apply")
        #expect(try ReplicationFixture.contents(of: a) == (try ReplicationFixture.contents(of: b)))
    }

    @Test func threeStoresWritingTheSameKeysConverge() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let stores = try (0..<3).map { _ in try fixture.store() }
        let replicators = try stores.map { try fixture.replicator($0, batchSize: 7) }
        var random = SeededRandom(seed: 42)
        for round in 0..<6 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, store) in stores.enumerated() {
                    let ids = (0..<12).map { _ in Int64(random.next() % 30) }
                    let deletes = (0..<3).map { _ in Int64(random.next() % 30) }
                    let replicator = replicators[index]
                    group.addTask {
                        try await store.write { tx in
                            for id in ids { try tx.add(tweet(id, "r\(round) s\(index) \(id)"), update: .all) }
                            for id in deletes { _ = try tx.delete(Tweet.self, key: id) }
                        }
                        try await replicator.once()
                    }
                }
                try await group.waitForAll()
            }
        }
        // Quiesce: two more rounds each, in turn.
        for _ in 0..<2 { for replicator in replicators { try await replicator.once() } }
        let reference = try ReplicationFixture.contents(of: stores[0])
        #expect(!reference.isEmpty)
        for store in stores.dropFirst() { #expect(try ReplicationFixture.contents(of: store) == reference) }
        // And the server's state is what they hold.
        let serverCount = try fixture.psql("SELECT count(*) FROM tweetie.records WHERE collection = 'tweets' AND NOT deleted")
        #expect(Int(serverCount) == reference.count)
    }

    /// The reason the change table is read by transaction id below xmin: a bigserial is drawn at
    /// insert, not at commit, so a poller reading `id > cursor` skips a change whose transaction
    /// commits after a later id's.
    @Test func aChangeCommittedOutOfOrderIsNotSkipped() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let b = try fixture.store()
        let rb = try fixture.replicator(b)
        try await rb.once()   // registers the collections, takes the (empty) snapshot
        let slow = try await PostgresLink.connect(fixture.url, logger: rb.logger)
        let fast = try await PostgresLink.connect(fixture.url, logger: rb.logger)
        defer { Task { await slow.close(); await fast.close() } }
        let first = try tweet(1, "slow").jsonString(), second = try tweet(2, "fast").jsonString()
        try await slow.rows("BEGIN")
        try await slow.rows("INSERT INTO tweetie.records (collection, record) VALUES ('tweets', \(first)::jsonb)")
        try await fast.rows("INSERT INTO tweetie.records (collection, record) VALUES ('tweets', \(second)::jsonb)")
        let ids = try await fast.rows("SELECT id FROM tweetie.changes ORDER BY id").map { try $0.decode(Int64.self) }
        #expect(ids.count == 1, "the slow transaction's change is not visible yet")
        // What a naive poller does: it has seen the fast change's id, the largest, and moves past it.
        let naiveCursor = try #require(ids.last)
        let pulledEarly = try await rb.once()
        #expect(pulledEarly.pull.applied == 0, "nothing is read while an older transaction may still commit")
        try await slow.rows("COMMIT")
        let naiveAfter = try await fast.rows("SELECT count(*) FROM tweetie.changes WHERE id > \(naiveCursor)").map { try $0.decode(Int64.self) }
        #expect(naiveAfter == [0], "a bigserial cursor never sees the slow change (its id is smaller)")
        try await rb.once()
        #expect(try await b.read { try $0.fetch(Query<Tweet>()).map(\.text).sorted() } == ["fast", "slow"])
    }

    /// A change committed while an older transaction runs (in any database of the server) is not
    /// readable until that one ends, and its notification has come and gone by then: a following
    /// device looks again on its own instead of waiting for its poll.
    @Test(.timeLimit(.minutes(2))) func aChangeHeldBackByAnOlderTransactionArrivesWhenItEnds() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let a = try fixture.store(), b = try fixture.store()
        let ra = try fixture.replicator(a), rb = try fixture.replicator(b, pollInterval: .seconds(600))
        try await ra.once()
        try await rb.once()
        let running = Task { try await rb.run() }
        defer { running.cancel() }
        let changes = b.observe(Query<Tweet>()).makeAsyncIterator()
        _ = try await changes.next()
        let older = try await PostgresLink.connect(fixture.url, logger: rb.logger)
        try await older.rows("BEGIN")
        try await older.rows("SELECT pg_current_xact_id()")
        try await a.write { tx in try tx.add(tweet(1, "held back")) }
        try await ra.push()
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await b.read { try $0.count(Tweet.self) } == 0, "not readable while the older transaction runs")
        let clock = ContinuousClock()
        let ended = clock.now
        try await older.rows("COMMIT")
        await older.close()
        let arrived = try #require(try await changes.next())
        #expect(arrived.results.map(\.text) == ["held back"])
        // Far below the poll of 600 s: the device looked again on its own.
        #expect(ended.duration(to: clock.now) < .seconds(60))
    }

    @Test(.timeLimit(.minutes(2))) func rowsWrittenWithSQLReachAnObserverAsChangesets() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let b = try fixture.store()
        let rb = try fixture.replicator(b)
        try await b.write { tx in try tx.add(tweet(5, "five")) }
        try await rb.once()
        let running = Task { try await rb.run() }
        defer { running.cancel() }
        let changes = b.observe(Query<Tweet>().sorted(by: Tweet.byCreated)).makeAsyncIterator()
        let initial = try #require(try await changes.next())
        #expect(initial.results.count == 1)
        try fixture.psql("INSERT INTO tweetie.records (collection, record) VALUES ('tweets', '\(try tweet(6, "from sql").jsonString())')")
        let inserted = try #require(try await changes.next())
        #expect(inserted.changeset.insertions.count == 1 && inserted.results.map(\.text).contains("from sql"))
        try fixture.psql("UPDATE tweetie.records SET record = jsonb_set(record, '{text}', '\"edited in sql\"') WHERE collection = 'tweets' AND key = '6'")
        let modified = try #require(try await changes.next())
        #expect(modified.changeset.modificationsInNew.count == 1 && modified.results.map(\.text).contains("edited in sql"))
        try fixture.psql("DELETE FROM tweetie.records WHERE collection = 'tweets' AND key = '5'")
        let deleted = try #require(try await changes.next())
        #expect(deleted.changeset.deletions.count == 1 && deleted.results.map(\.text) == ["edited in sql"])
    }

    @Test func sqlThatBreaksTheRecordRulesIsRefusedWithASentenceAndWritesNothing() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        // A device registers the collections (a record of a collection nobody replicates is refused).
        let b = try fixture.store()
        let rb = try fixture.replicator(b)
        try await rb.once()
        let good = try tweet(1, "good").jsonString()
        let refusals: [(sql: String, phrase: String)] = [
            ("INSERT INTO tweetie.records (collection, record) VALUES ('notes', '{\"id\": 1}')", #"the collection "notes" is not replicated"#),
            ("INSERT INTO tweetie.records (collection, key, record) VALUES ('tweets', '3', '[1, 2]')", "the record of tweets/3 is a JSON array, not an object"),
            ("INSERT INTO tweetie.records (collection, record) VALUES ('tweets', '{\"text\": \"no id\"}')", #"has no key: the field "id" is missing"#),
            ("INSERT INTO tweetie.records (collection, key, record) VALUES ('tweets', '8', '\(good)')", #"the key "8" of a "tweets" record differs from its field "id" (1)"#),
            // One bad row among good ones: the statement writes none of them.
            ("INSERT INTO tweetie.records (collection, key, record) VALUES ('tweets', '1', '\(good)'), ('tweets', '9', '\(good)')", #"the key "9""#),
        ]
        for (sql, phrase) in refusals {
            #expect {
                try fixture.psql(sql)
            } throws: { error in
                "\(error)".contains(phrase)
            }
        }
        #expect(try fixture.psql("SELECT (SELECT count(*) FROM tweetie.records) + (SELECT count(*) FROM tweetie.changes)") == "0")
        // A key that moves (an SQL client may do it) reaches devices as a delete and an insert.
        try fixture.psql("INSERT INTO tweetie.records (collection, record) VALUES ('tweets', '\(good)')")
        try await rb.once()
        try fixture.psql("UPDATE tweetie.records SET key = '2', record = jsonb_set(jsonb_set(record, '{id}', '2'), '{idStr}', '\"2\"') WHERE collection = 'tweets' AND key = '1'")
        #expect(try fixture.psql("SELECT string_agg(key || ':' || deleted, ',' ORDER BY id) FROM tweetie.changes") == "1:false,1:true,2:false")
        try await rb.once()
        #expect(try await b.read { try $0.fetch(Query<Tweet>()).map(\.id) } == [2])
    }

    @Test func aRecordThatDoesNotDecodeStopsThePullWithNothingApplied() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let b = try fixture.store()
        let rb = try fixture.replicator(b)
        try await rb.once()
        try fixture.psql("""
            BEGIN;
            INSERT INTO tweetie.records (collection, record) VALUES ('tweets', '\(try tweet(1, "good").jsonString())');
            INSERT INTO tweetie.records (collection, record) VALUES ('tweets', '{"id": 2, "text": 7}');
            COMMIT;
            """)
        await #expect {
            try await rb.once()
        } throws: { error in
            let error = error as? ReplicationError
            return error?.code == .undecodableRecord && error?.message.contains("tweets/2") == true
        }
        #expect(try await b.read { try $0.count(Tweet.self) } == 0, "the good record of the same batch was not applied either")
        // Fixed on the server, the next pull applies both.
        try fixture.psql("UPDATE tweetie.records SET record = '\(try tweet(2, "fixed").jsonString())' WHERE key = '2'")
        try await rb.once()
        #expect(try await b.read { try $0.count(Tweet.self) } == 2)
    }

    @Test func aNewerRecordSchemaIsRefusedNamingBothVersions() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let b = try fixture.store()
        let rb = try fixture.replicator(b)
        try await rb.once()
        try fixture.psql("INSERT INTO tweetie.records (collection, record, schema_version) VALUES ('tweets', '\(try tweet(1, "v2").jsonString())', 2)")
        await #expect {
            try await rb.once()
        } throws: { error in
            let error = error as? ReplicationError
            return error?.code == .newerRecordSchema && error?.message.contains("schema version 2") == true
                && error?.message.contains("(version 1)") == true
        }
        #expect(try await b.read { try $0.count(Tweet.self) } == 0)
    }

    @Test func deletesWinAndResolversDecide() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let a = try fixture.store(), b = try fixture.store()
        let ra = try fixture.replicator(a, tweets: .deletesWin), rb = try fixture.replicator(b, tweets: .deletesWin)
        try await a.write { tx in try tx.add(tweet(1, "one")) }
        try await ra.once()
        try await rb.once()
        // a edits, b deletes, a pushes first: b's delete still wins when b pushes.
        try await a.write { tx in try tx.add(tweet(1, "edited"), update: .all) }
        try await b.write { tx in _ = try tx.delete(Tweet.self, key: 1) }
        try await ra.once()
        try await rb.once()
        try await ra.once()
        #expect(try await a.read { try $0.get(Tweet.self, key: 1) } == nil)
        #expect(try fixture.psql("SELECT losing_record->>'text', winning_deleted FROM tweetie.conflicts") == "edited|t")

        // A resolver that keeps the longer text, on both sides.
        let longer = ConflictPolicy<Tweet>.resolve { local, remote, _ in
            guard let local, let remote else { return .delete }
            return .merged(local.text.count >= remote.text.count ? local : remote)
        }
        let c = try fixture.store(), d = try fixture.store()
        let rc = try fixture.replicator(c, tweets: longer), rd = try fixture.replicator(d, tweets: longer)
        try await c.write { tx in try tx.add(tweet(7, "seven")) }
        try await rc.once()
        try await rd.once()
        try await c.write { tx in try tx.add(tweet(7, "a much longer seven"), update: .all) }
        try await d.write { tx in try tx.add(tweet(7, "7"), update: .all) }
        try await rc.once()
        try await rd.once()
        try await rc.once()
        #expect(try await d.read { try $0.get(Tweet.self, key: 7)?.text } == "a much longer seven")
        #expect(try await c.read { try $0.get(Tweet.self, key: 7)?.text } == "a much longer seven")
    }

    /// A push reads its next plan while the server writes the current batch and the store
    /// records the batch before it: keys met again in a later plan must not be compared against
    /// versions not yet recorded.
    @Test func aPushOverManyPlansNeverConflictsWithItself() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let a = try fixture.store(), b = try fixture.store()
        let ra = try fixture.replicator(a, batchSize: 5), rb = try fixture.replicator(b)
        try await ra.once()
        for round in ["first", "second", "third"] {
            // A batch of keys per round: the next plan meets the keys of the batch being pushed.
            for id in 1...5 { try await a.write { tx in try tx.add(tweet(Int64(id), "\(round) \(id)"), update: .all) } }
        }
        let summary = try await ra.once()
        // Each key once, with its last value: a plan read against versions not yet recorded
        // would push keys again (adopted by the server) or report conflicts.
        #expect(summary.push.pushed == 5 && summary.push.adopted == 0 && summary.push.conflicts == 0, "\(summary)")
        #expect(try fixture.psql("SELECT count(*) FROM tweetie.conflicts") == "0")
        try await rb.once()
        #expect(try await b.read { try $0.fetch(Query<Tweet>()).map(\.text).allSatisfy { $0.hasPrefix("third ") } })
        #expect(try ReplicationFixture.contents(of: a) == (try ReplicationFixture.contents(of: b)))
    }

    @Test func offlineWritesPastTheLogsRetentionArePushed() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        var configuration = StoreConfiguration()
        configuration.changeLogRetention = 5
        let a = try fixture.store(configuration: configuration), b = try fixture.store()
        let ra = try fixture.replicator(a), rb = try fixture.replicator(b)
        try await ra.once()
        for id in 1...40 { try await a.write { tx in try tx.add(tweet(Int64(id), "offline \(id)")) } }
        let summary = try await ra.once()
        #expect(summary.push.reconciled && summary.push.pushed == 40)
        try await rb.once()
        #expect(try ReplicationFixture.contents(of: a) == (try ReplicationFixture.contents(of: b)))
    }
}
}

extension Tweet {
    /// The record's JSON, as a device pushes it.
    func jsonString() throws -> String { String(decoding: try RecordJSON.encoder().encode(self), as: UTF8.self) }
}
