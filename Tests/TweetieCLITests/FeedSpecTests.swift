import Foundation
import Testing
@testable import TweetieSync
import TweetieTestSupport

/// The feed as `schemas/tweetie-feed.schema.json`, the Feed Format article (TweetieSync.docc) and `feed --help` specify it
/// (version 3): every emitted message is checked against the schema's rules and the six points
/// the schema states in words.
@Suite("tweetie-db feed follows its published spec")
struct FeedSpecTests {
    static let now = "2018-12-12T00:00:00Z"

    static func checker() throws -> JSONSchemaChecker {
        try JSONSchemaChecker(schema: Data(contentsOf: Repository.root.appendingPathComponent("schemas/tweetie-feed.schema.json")))
    }

    /// A renderer that checks every message it applies against the spec.
    struct Renderer<Row: Codable & Sendable & Hashable> {
        let checker: JSONSchemaChecker
        var state = FeedState<Row>()
        var messages: [FeedMessage<Row>] = []

        mutating func apply(_ line: String) throws {
            let json = try JSONValue.parse(Data(line.utf8))
            #expect(checker.violations(of: json).isEmpty, "\(checker.violations(of: json)) in \(line.prefix(300))")
            #expect(json["version"] == .integer(4))
            let message = try RecordJSON.decoder().decode(FeedMessage<Row>.self, from: Data(line.utf8))
            // Every message's position is its sequence with the commit id of that entry.
            #expect(message.position.sequence == message.sequence && (message.sequence == 0 || message.position.commitID != nil),
                    "position \(message.position) of sequence \(message.sequence)")
            if let last = messages.last { #expect(message.sequence > last.sequence, "sequences strictly increase") }
            if message.type == .change {
                // Point 2: no row operation points into an inserted section or out of a deleted one.
                let inserted = Set((message.sectionInsertions ?? []).map(\.index))
                let deleted = Set(message.sectionDeletions ?? [])
                #expect((message.rowInsertions ?? []).allSatisfy { !inserted.contains($0.at[0]) })
                #expect((message.rowMoves ?? []).allSatisfy { !inserted.contains($0.to[0]) && !deleted.contains($0.from[0]) })
                #expect((message.rowDeletions ?? []).allSatisfy { !deleted.contains($0[0]) })
                for insertion in message.sectionInsertions ?? [] { #expect(!insertion.section.rows.isEmpty) }
            }
            try state.apply(message)
            messages.append(message)
        }
    }

    /// Point 1 and 6 on a state: section keys and order, row order, unique ids, no empty section.
    static func checkOrder(_ sections: [FeedSection<TimelineRow>], day: Bool) {
        let keys = sections.map(\.key)
        if day {
            #expect(keys.allSatisfy { $0.range(of: #"^\d{4}-\d{2}-\d{2}$"#, options: .regularExpression) != nil })
            #expect(keys == keys.sorted(by: >) && Set(keys).count == keys.count, "days newest first: \(keys)")
            for section in sections {
                #expect(section.rows.allSatisfy { TimelineFormat.dayKey(of: $0.created) == section.key })
            }
        } else {
            #expect(keys == [] || keys == ["all"])
        }
        #expect(sections.allSatisfy { !$0.rows.isEmpty }, "a section exists only while it has rows")
        let rows = sections.flatMap(\.rows)
        #expect(rows.map(\.created) == rows.map(\.created).sorted(by: >), "rows newest first")
        #expect(Set(rows.map(\.id)).count == rows.count, "row ids are unique")
    }

    static func lastSequence(_ db: TemporaryDirectory) throws -> UInt64 {
        let stats = try RecordJSON.decoder().decode(StoreStatistics.self, from: try CLI.run(["stats", "--db", db.path, "--format", "json"]).stdout)
        return stats.changeLogLast ?? 0
    }

    static func follow<Row>(_ process: RunningProcess, _ renderer: inout Renderer<Row>, until sequence: UInt64) throws {
        while renderer.state.sequence < sequence {
            guard let line = try process.nextLine(timeout: 30) else { Issue.record("the feed ended"); return }
            try renderer.apply(line)
        }
    }

    @Test(arguments: [["list", "--sections", "day"], ["list", "--sections", "none", "--no-moves"], ["person", "mayalindqvist", "--sections", "day"],
                      ["list", "--sections", "day", "--limit", "7"], ["list", "--sections", "none", "--no-moves", "--limit", "3"]])
    func everyMessageFollowsTheSchemaAndTheRules(feed: [String]) throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        #expect(try CLI.run(["sync", "--simulated", "--seed", "5", "--ticks", "2", "--db", db.path]).status == 0)
        let follower = try CLI.start(["feed"] + feed + ["--follow", "--now", Self.now, "--db", db.path])
        defer { follower.stop() }
        var renderer = Renderer<TimelineRow>(checker: try Self.checker())
        try Self.follow(follower, &renderer, until: 1)
        #expect(renderer.messages.first?.reason == .initial)
        #expect(try CLI.run(["sync", "--simulated", "--seed", "5", "--ticks", "30", "--db", db.path]).status == 0)
        // Catches up with the database: a window hears only of the commits that change it, so
        // it follows until it shows what a fresh one does.
        func catchUp() throws -> Renderer<TimelineRow> {
            let once = try CLI.run(["feed"] + feed + ["--once", "--now", Self.now, "--db", db.path])
            var fresh = Renderer<TimelineRow>(checker: try Self.checker())
            try fresh.apply(String(once.output.split(separator: "\n")[0]))
            if feed.contains("--limit") {
                while renderer.state.sections != fresh.state.sections {
                    guard let line = try follower.nextLine(timeout: 30) else { Issue.record("the feed ended"); return fresh }
                    try renderer.apply(line)
                }
            } else {
                try Self.follow(follower, &renderer, until: try Self.lastSequence(db))
            }
            return fresh
        }
        if feed.contains("--limit") { _ = try catchUp() }
        let newest = renderer.state.sections.first?.rows.prefix(2).map { "\($0.id)" } ?? []
        #expect(try CLI.run(["tweets", "delete", "--force"] + newest + ["--db", db.path]).status == 0)
        let fresh = try catchUp()
        Self.checkOrder(renderer.state.sections, day: feed.contains("day"))
        if feed.contains("day") && feed[0] == "list" {
            #expect(renderer.messages.contains { !($0.sectionInsertions ?? []).isEmpty }, "new days arrived as section insertions")
        }
        if let index = feed.firstIndex(of: "--limit"), let limit = Int(feed[index + 1]) {
            // A window: every message says so; new tweets pushed rows out at its end, and the
            // deleted newest ones let rows in.
            #expect(renderer.messages.allSatisfy { $0.window?.limit == limit })
            #expect(renderer.state.sections.reduce(0) { $0 + $1.rows.count } == limit && renderer.state.window?.more == true)
            #expect(renderer.messages.contains { !($0.windowLeft ?? []).isEmpty }, "rows left the window")
            #expect(renderer.messages.contains { !($0.windowEntered ?? []).isEmpty }, "rows entered the window")
        } else {
            #expect(renderer.messages.allSatisfy { $0.window == nil && $0.windowEntered == nil && $0.windowLeft == nil })
        }
        #expect(renderer.state.sections == fresh.state.sections)
        #expect(renderer.state.window == fresh.state.window)
    }

    @Test func thePeopleFeedIsOneSectionByUsername() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        #expect(try CLI.run(["sync", "--api-cache", ProjectFixtureCLI.cache, "--db", db.path]).status == 0)
        let people = try CLI.run(["feed", "people", "--db", db.path])
        var renderer = Renderer<PersonRow>(checker: try Self.checker())
        try renderer.apply(String(people.output.split(separator: "\n")[0]))
        #expect(renderer.state.sections.map(\.key) == ["all"])
        let handles = renderer.state.sections[0].rows.map { $0.handle.lowercased() }
        #expect(handles.count == 8 && handles == handles.sorted())
        #expect(people.output.contains(#""id":"104558201""#), "ids are decimal strings")
        let empty = try CLI.run(["feed", "people", "--list", "nobody/empty", "--db", db.path])
        #expect(empty.output.contains(#""sections":[]"#))
    }

    /// Point 3: an empty feed is `sections: []`; its first rows arrive as a section insertion, and
    /// the last rows leave by a section deletion.
    @Test(arguments: ["day", "none"])
    func theEmptyFeedGrowsAndShrinksBySections(sections: String) throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        #expect(try CLI.run(["sync", "--simulated", "--seed", "2018", "--ticks", "0", "--db", db.path]).status == 0)
        // A cache serving the fixtures' newest page for another list.
        let cache = TemporaryDirectory("cli")
        defer { cache.remove() }
        try FileManager.default.createDirectory(at: cache.url.appendingPathComponent("lists"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: ProjectFixtureCLI.cache).appendingPathComponent("lists/statuses.json-owner_screen_name-icanzilb-slug-RxSwift"),
            to: cache.url.appendingPathComponent("lists/statuses.json-owner_screen_name-nobody-slug-empty"))
        let follower = try CLI.start(["feed", "list", "--list", "nobody/empty", "--sections", sections, "--follow", "--now", Self.now, "--db", db.path])
        defer { follower.stop() }
        let first = try #require(try follower.nextLine(timeout: 30))
        #expect(first.contains(#""sections":[]"#))
        var renderer = Renderer<TimelineRow>(checker: try Self.checker())
        try renderer.apply(first)
        #expect(try CLI.run(["sync", "--api-cache", cache.url.path, "--list", "nobody/empty", "--db", db.path]).status == 0)
        try Self.follow(follower, &renderer, until: try Self.lastSequence(db))
        let growth = renderer.messages.dropFirst()
        #expect(growth.first.map { ($0.rowInsertions ?? []).isEmpty && !($0.sectionInsertions ?? []).isEmpty } == true)
        #expect(growth.first?.sectionInsertions?.first?.index == 0)
        #expect(renderer.state.sections.flatMap(\.rows).count == 20)
        if sections == "none" { #expect(growth.first?.sectionInsertions?.first?.section.key == "all") }
        let ids = renderer.state.sections.flatMap(\.rows).map { "\($0.id)" }
        #expect(try CLI.run(["tweets", "delete", "--force"] + ids + ["--db", db.path]).status == 0)
        try Self.follow(follower, &renderer, until: try Self.lastSequence(db))
        #expect(renderer.state.sections.isEmpty)
        #expect(renderer.messages.last.map { !($0.sectionDeletions ?? []).isEmpty && ($0.rowDeletions ?? []).isEmpty } == true)
    }

    /// Point 1 for any year: a day section is the UTC day of the export's calendar (proleptic
    /// Gregorian, astronomical years), keyed as the export writes that day, which the schema's
    /// pattern admits; sections go newest day first whatever their keys' text order.
    @Test func daySectionsOfAnyYearAreTheExportsDaysAndMatchTheSchema() throws {
        let dates = ["1000-01-01T12:00:00.000Z", "0000-06-01T08:00:00.000Z", "-0195-01-13T10:20:30.400Z", "+10000-01-01T00:00:00.000Z",
                     "1582-10-04T23:00:00.000Z", "1582-10-15T01:00:00.000Z", "2018-12-08T08:47:15.000Z"]
        let tweets = dates.enumerated().map { offset, text in
            Tweet(id: Int64(offset + 1), text: "t", name: "Ann", username: "ann", authorId: 7, created: RecordJSON.date(from: text)!,
                  imageURL: "i", retweetCount: 0, favoriteCount: 0)
        }
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        let imported = try CLI.run(["import", "-", "--db", db.path], stdin: try ControlCharactersCLITests.export(tweets: tweets, users: []))
        #expect(imported.status == 0, "\(imported.stderr)")
        let output = try CLI.run(["feed", "person", "ann", "--sections", "day", "--once", "--now", Self.now, "--db", db.path])
        #expect(output.status == 0, "\(output.stderr)")
        var renderer = Renderer<TimelineRow>(checker: try Self.checker())
        try renderer.apply(String(output.output.dropLast()))
        let sections = renderer.state.sections
        #expect(sections.map(\.key) == ["+10000-01-01", "2018-12-08", "1582-10-15", "1582-10-04", "1000-01-01", "0000-06-01", "-0195-01-13"])
        #expect(sections.map(\.title) == ["Saturday, Jan 1, 10000", "Saturday, Dec 8", "Friday, Oct 15, 1582", "Monday, Oct 4, 1582",
                                          "Wednesday, Jan 1, 1000", "Thursday, Jun 1, 0", "Sunday, Jan 13, -195"])
        for section in sections {
            #expect(section.rows.allSatisfy { RecordJSON.string(from: $0.created).hasPrefix(section.key + "T") }, "\(section.key)")
        }
        // What the schema's pattern admits: four digits, or a sign and four to nine digits.
        let pattern = #"^(([0-9]{4}|-(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3,8})|\+[1-9][0-9]{4,8})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])|all)$"#
        for key in ["0000-01-01", "9999-12-31", "-0001-12-31", "-12345-01-01", "+10000-01-01", "+292277026-12-31", "all"] {
            #expect(key.range(of: pattern, options: .regularExpression) != nil, "\(key)")
        }
        for key in ["-0000-01-01", "+9999-01-01", "+01000-01-01", "10000-01-01", "2018-13-01", "2018-12-32", "-0195-1-13", "+1234567890-01-01"] {
            #expect(key.range(of: pattern, options: .regularExpression) == nil, "\(key)")
        }
        let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: Repository.root.appendingPathComponent("schemas/tweetie-feed.schema.json"))) as? [String: Any]
        let defs = schema?["$defs"] as? [String: Any], section = defs?["section"] as? [String: Any]
        let key = (section?["properties"] as? [String: Any])?["key"] as? [String: Any]
        #expect(key?["pattern"] as? String == pattern)
    }

    /// Point 4: the same `--now` gives the same rows; another `--now` other relative times.
    @Test func relativeTimesDependOnNow() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        #expect(try CLI.run(["sync", "--simulated", "--seed", "3", "--ticks", "3", "--db", db.path]).status == 0)
        func snapshot(_ now: String) throws -> (String, [TimelineRow]) {
            let output = try CLI.run(["feed", "list", "--once", "--now", now, "--db", db.path]).output
            let message = try RecordJSON.decoder().decode(FeedMessage<TimelineRow>.self, from: Data(output.utf8))
            return (output, message.sections?.flatMap(\.rows) ?? [])
        }
        let (first, rows) = try snapshot(Self.now)
        let (second, _) = try snapshot(Self.now)
        let (later, laterRows) = try snapshot("2018-12-09T12:00:00Z")
        #expect(first == second)
        #expect(first != later)
        #expect(rows.map(\.id) == laterRows.map(\.id))
        #expect(zip(rows, laterRows).contains { $0.relativeTime != $1.relativeTime })
        #expect(zip(rows, laterRows).allSatisfy { $0.hasSameContent(as: $1) })
    }

    /// Point 5 and 6 in `--help`, and the old sentence gone.
    @Test func helpStatesCoalescingVersionAndStringIds() throws {
        let help = try CLI.run(["feed", "--help"]).output.replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        #expect(!help.contains("one line follows per change committed"))
        for phrase in ["Changes coalesce", "sequence numbers may skip", "strictly increase within one stream", "\"version\":4", "\"position\"",
                       "row ids are decimal strings", "newest day first", "\"sections\":[]", "section insertion", "same --now"] {
            #expect(help.contains(phrase), "\(phrase)")
        }
    }

    /// Point 6: ids above 2^53 stay exact for a reader whose numbers are doubles, and version-1
    /// messages (numeric ids, no version) fail the schema and the reference renderer.
    @Test func rowIdsAreExactDecimalStringsAndVersion1IsRefused() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        #expect(try CLI.run(["sync", "--api-cache", ProjectFixtureCLI.cache, "--db", db.path]).status == 0)
        let line = String(try CLI.run(["feed", "list", "--once", "--now", Self.now, "--db", db.path]).output.split(separator: "\n")[0])
        let message = try RecordJSON.decoder().decode(FeedMessage<TimelineRow>.self, from: Data(line.utf8))
        let ids = message.sections?.flatMap(\.rows).map(\.id) ?? []
        #expect(ids.count == 20 && ids.allSatisfy { $0 > 1 << 53 })
        // JSONSerialization reads the strings as strings: exact.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let sections = try #require(object["sections"] as? [[String: Any]])
        let texts = sections.flatMap { ($0["rows"] as! [[String: Any]]).map { $0["id"] as? String } }
        #expect(texts == ids.map { String($0) })

        let checker = try Self.checker()
        #expect(checker.violations(of: try JSONValue.parse(Data(line.utf8))).isEmpty)
        let numericId = line.replacingOccurrences(of: "\"id\":\"\(ids[0])\"", with: "\"id\":\(ids[0])")
        let noVersion = line.replacingOccurrences(of: ",\"version\":4", with: "")
        let version1 = line.replacingOccurrences(of: "\"version\":4", with: "\"version\":1")
        let version3 = line.replacingOccurrences(of: "\"version\":4", with: "\"version\":3")
        let version2 = line.replacingOccurrences(of: "\"version\":4", with: "\"version\":2")
            .replacingOccurrences(of: #","position":"[0-9.a-f]+""#, with: "", options: .regularExpression)
        for bad in [numericId, noVersion, version1, version2, version3] {
            #expect(bad != line)
            #expect(!checker.violations(of: try JSONValue.parse(Data(bad.utf8))).isEmpty)
        }
        #expect(throws: DecodingError.self) { try RecordJSON.decoder().decode(FeedMessage<TimelineRow>.self, from: Data(numericId.utf8)) }
        var state = FeedState<TimelineRow>()
        #expect(throws: FeedState<TimelineRow>.InvalidMessage.self) {
            try state.apply(try RecordJSON.decoder().decode(FeedMessage<TimelineRow>.self, from: Data(version1.utf8)))
        }
    }
}
