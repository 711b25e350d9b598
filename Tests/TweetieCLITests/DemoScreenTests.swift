import Foundation
import Testing
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif
import TweetieTestSupport

@Suite("tweetie-db demo on a terminal")
struct DemoScreenTests {
    static let enter = "\u{1B}[?1049h"
    static let leave = "\u{1B}[?25h\u{1B}[?1049l"

    /// The list timeline stored in the database at `path`, as the demo's view model sections it:
    /// one section per UTC day, newest first, rows newest first.
    static func storedTimeline(_ path: String, seed: UInt64) throws -> [(key: String, rows: [TimelineRow])] {
        let store = try TweetieDatabase.open(at: path)
        defer { store.close() }
        let list = SimulatedTwitterSource(seed: seed).list
        let tweets = try store.read { try $0.fetch(TimelineTarget.list(list).storedTweets) }
        var sections: [(key: String, rows: [TimelineRow])] = []
        for tweet in tweets {
            let key = TimelineDay(tweet.created).key
            if sections.last?.key != key { sections.append((key, [])) }
            sections[sections.count - 1].rows.append(TimelineRow(tweet, now: Date()))
        }
        return sections
    }

    /// Checks the body of a frame (its lines after the title and the status line) against the
    /// stored timeline, line by line, as far as the frame goes; returns the rows it checked.
    @discardableResult
    static func expectBody(_ body: [String], matches timeline: [(key: String, rows: [TimelineRow])], width: Int) -> Int {
        var expected: [(header: String?, row: TimelineRow?)] = []
        for section in timeline {
            expected.append(("(\(section.key), \(section.rows.count) tweets)", nil))
            expected += section.rows.map { (nil, $0) }
        }
        var lines = body
        while lines.last?.isEmpty == true { lines.removeLast() }
        if let last = lines.last, last.hasPrefix("… ") {
            lines.removeLast()
            let hidden = expected.dropFirst(lines.count).filter { $0.row != nil }.count
            #expect(last == "… \(hidden) more rows below")
        } else {
            #expect(lines.count == expected.count, "the whole timeline fits, so every line of it is shown")
        }
        var rows = 0
        for (line, want) in zip(lines, expected) {
            #expect(line.count <= width)
            if let header = want.header {
                #expect(line.hasPrefix(" ") && line.hasSuffix(header), "section header \(line.debugDescription), expected …\(header)")
                continue
            }
            let row = want.row!
            #expect(" +~>".contains(line.first ?? "?"), "row mark of \(line.debugDescription)")
            guard let handle = line.range(of: row.handle + " ", range: line.index(line.startIndex, offsetBy: min(2, line.count))..<line.endIndex) else {
                Issue.record("row \(line.debugDescription) does not show \(row.handle)")
                continue
            }
            let start = line.index(handle.lowerBound, offsetBy: max(16, row.handle.count) + 1, limitedBy: line.endIndex) ?? line.endIndex
            var shown = String(line[start...])
            if shown.hasSuffix("…") { shown.removeLast() }
            let text = String(row.text.map { $0.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) } ? " " : $0 })
            #expect(!shown.isEmpty && text.hasPrefix(shown), "row text \(shown.debugDescription) is not the start of \(text.debugDescription)")
            rows += 1
        }
        return rows
    }

    // The demos below fetch 0.2 s apart: the view model starts observing while the first fetch
    // runs, and if all the commits came before it, its first delivery would be a snapshot with no
    // changeset to mark or log.
    @Test func finalScreenShowsTheStoredTimelineAndTheTerminalIsRestored() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        let run = try PseudoTerminalRun(["demo", "--db", db.path, "--ticks", "5", "--interval", "0.2", "--seed", "3"], rows: 24, columns: 100)
        let (status, output) = try run.finish()
        #expect(status == 0, "\(output.suffix(1000))")
        #expect(output.hasPrefix(Self.enter), "the screen starts on the alternate screen")
        var terminal = VirtualTerminal(rows: 24, columns: 100)
        terminal.feed(output)
        #expect(terminal.unknown.isEmpty, "sequences the demo should not send: \(terminal.unknown)")
        #expect(!terminal.onAlternate && terminal.cursorVisible, "the terminal is restored")
        #expect(terminal.leftAlternate.count == 1 && terminal.overflowWhenLeft == [0])
        #expect(terminal.lines.contains { $0.hasPrefix("summary: 5 fetches;") }, "the summary is printed after the screen: \(terminal.lines)")
        let screen = try #require(terminal.leftAlternate.last)
        let timeline = try Self.storedTimeline(db.path, seed: 3)
        let rows = timeline.reduce(0) { $0 + $1.rows.count }
        #expect(rows > 0)
        #expect(screen[0].contains(SimulatedTwitterSource(seed: 3).list.key))
        #expect(screen[1].hasPrefix("fetch 5/5 · \(rows) rows in \(timeline.count) sections · changeset "), "status line \(screen[1].debugDescription)")
        #expect(screen[1].contains(" applied exactly (sequence "), "status line \(screen[1].debugDescription)")
        #expect(screen[23].hasPrefix("… "), "the timeline is longer than the screen: the last line says so")
        let checked = Self.expectBody(Array(screen.dropFirst(2)), matches: timeline, width: 100)
        #expect(checked >= 15)
        Self.expectMarks(terminal.frames.map(\.lines))
    }

    /// Checks the row marks of each frame against the changeset counts its status line gives:
    /// every row the first changeset brings into an empty database is marked `+` (when the view
    /// model saw the database empty first), and no frame
    /// marks more rows than its changeset inserted, modified or moved.
    static func expectMarks(_ frames: [[String]]) {
        var changesets = 0
        var startedEmpty = false
        for frame in frames where frame.count > 1 {
            if changesets == 0, frame[1].contains(" 0 rows in 0 sections · snapshot") { startedEmpty = true }
            guard let range = frame[1].range(of: #"changeset \d+: \+(\d+) ~(\d+) -\d+ >(\d+)"#, options: .regularExpression) else { continue }
            let counts = frame[1][range].split(separator: " ").dropFirst(2).map { Int($0.dropFirst()) ?? -1 }
            let rows = frame.dropFirst(2).filter { !$0.hasPrefix(" ") || $0.hasPrefix("  ") }.filter { !$0.hasPrefix("… ") && !$0.isEmpty }
            let marked = ["+", "~", ">"].map { mark in rows.filter { $0.hasPrefix(mark) }.count }
            #expect(marked[0] <= counts[0] && marked[1] <= counts[1] && marked[2] <= counts[3], "marks \(marked) for \(frame[1])")
            if changesets == 0, startedEmpty {
                #expect(!rows.isEmpty && marked[0] == rows.count, "the first changeset inserts every row shown: \(frame)")
            }
            changesets += 1
        }
        #expect(changesets > 0, "frames with a changeset were drawn")
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsTheDemoAndRestoresTheTerminal(_ number: Int32) throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        let run = try PseudoTerminalRun(["demo", "--db", db.path, "--ticks", "100000", "--interval", "0.05", "--seed", "4"], rows: 24, columns: 80)
        try run.wait(for: "fetch 2/100000")
        kill(run.process.processIdentifier, number)
        let (status, output) = try run.finish()
        #expect(status == 0, "\(output.suffix(1000))")
        var terminal = VirtualTerminal(rows: 24, columns: 80)
        terminal.feed(output)
        #expect(!terminal.onAlternate && terminal.cursorVisible, "the terminal is restored")
        let restored = try #require(output.range(of: Self.leave, options: .backwards))
        #expect(!output[restored.upperBound...].contains("\u{1B}["), "nothing is drawn after the terminal is restored")
        #expect(output[restored.upperBound...].contains("summary: "))
        // Stopped early, the demo does not wait for the last commits to reach the screen: the
        // screen is checked against the database where the demo runs to its end.
        let screen = try #require(terminal.leftAlternate.last)
        #expect(screen[1].hasPrefix("fetch "), "status line \(screen[1].debugDescription)")
    }

    @Test func theScreenFollowsTheTerminalSize() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        // Two fetches 4 s apart: the resize comes while the demo waits, so only SIGWINCH redraws.
        let run = try PseudoTerminalRun(["demo", "--db", db.path, "--ticks", "2", "--interval", "4", "--seed", "5"], rows: 40, columns: 100)
        // After the first fetch, give its changeset a second to reach the screen (the second fetch is 4 s away).
        try run.wait(for: "fetch 1/2 · ")
        usleep(1_000_000)
        let resizedAt = run.byteCount
        try run.resize(rows: 16, columns: 50)
        kill(run.process.processIdentifier, SIGWINCH)
        usleep(1_000_000)
        let redrawnBy = run.byteCount
        let (status, output) = try run.finish()
        #expect(status == 0, "\(output.suffix(1000))")
        // Resize the screen where the terminal was resized: at the start of the frame being drawn then.
        let bytes = Array(output.utf8)
        let home = Array("\u{1B}[1;1H".utf8)
        let cut = try #require(stride(from: min(resizedAt, bytes.count - home.count), through: 0, by: -1).first { bytes[$0..<($0 + home.count)].elementsEqual(home) })
        var terminal = VirtualTerminal(rows: 40, columns: 100)
        terminal.feed(String(decoding: bytes[..<cut], as: UTF8.self))
        terminal.resize(rows: 16, columns: 50)
        terminal.feed(String(decoding: bytes[cut..<redrawnBy], as: UTF8.self))
        // Within a second of SIGWINCH, seconds before the second fetch, the screen is redrawn at the new size.
        #expect(terminal.overflow == 0, "lines are cut to the new width: \(terminal.lines)")
        #expect(terminal.lines[1].hasPrefix("fetch 1/2 "), "\(terminal.lines)")
        #expect(terminal.lines[15].hasPrefix("… "), "the last line says what did not fit: \(terminal.lines)")
        terminal.feed(String(decoding: bytes[redrawnBy...], as: UTF8.self))
        let screen = try #require(terminal.leftAlternate.last)
        #expect(terminal.overflowWhenLeft == [0], "the last frame's lines are cut to the new width: \(screen)")
        #expect(screen[15].hasPrefix("… "), "the last line says what did not fit: \(screen[15].debugDescription)")
        Self.expectBody(Array(screen.dropFirst(2)), matches: try Self.storedTimeline(db.path, seed: 5), width: 50)
    }

    @Test(arguments: [(["--log"], "xterm"), ([], "dumb")])
    func withLogOrADumbTerminalItPrintsTheLog(_ extra: [String], _ term: String) throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        let run = try PseudoTerminalRun(["demo", "--db", db.path, "--ticks", "3", "--interval", "0.2", "--seed", "3"] + extra,
                                        rows: 24, columns: 80, environment: ["TERM": term])
        let (status, output) = try run.finish()
        #expect(status == 0, "\(output.suffix(1000))")
        #expect(!output.contains("\u{1B}["), "no escape sequences in the log")
        let lines = output.split(separator: "\r\n").map(String.init)
        #expect(lines.first.map { $0.hasPrefix("snapshot (sequence") || $0.hasPrefix("fetch 1:") } == true, "\(lines.prefix(3))")
        #expect(lines.contains { $0.hasPrefix("changeset (sequence") && $0.hasSuffix("applied exactly") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("summary: 3 fetches;") })
    }
}
