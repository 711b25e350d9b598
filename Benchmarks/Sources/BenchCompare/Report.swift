import BenchSupport
import Foundation

/// The comparison table and the target checks, rendered as Markdown.
final class Report {
    struct Row {
        var suite: String
        var measure: String
        var tweetie: String
        var peer: String
        var peerValue: String
        var ratio: String
    }
    struct Target {
        var name: String
        var figure: String
        var met: Bool
    }

    /// Everything from this line on in an existing report is kept when the report is rewritten.
    static let keptMarker = "<!-- kept across runs: hand-written analysis below -->"

    private(set) var rows: [Row] = []
    private(set) var targets: [Target] = []
    private(set) var notes: [String] = []

    func add(_ suite: String, _ measure: String, tweetie: String, peer: String = "—", peerValue: String = "—", ratio: Double? = nil) {
        let row = Row(suite: suite, measure: measure, tweetie: tweetie, peer: peer, peerValue: peerValue, ratio: ratio.map(Format.ratio) ?? "—")
        rows.append(row)
        say("  \(measure): TweetieDB \(tweetie)" + (peer == "—" ? "" : " | \(peer) \(peerValue) | ratio \(row.ratio)"))
    }

    func target(_ name: String, _ figure: String, met: Bool) {
        targets.append(Target(name: name, figure: figure, met: met))
        say("  target \(met ? "MET" : "MISSED"): \(name) — \(figure)")
    }

    func note(_ text: String) { notes.append(text) }

    func markdown(command: String, machine: String, toolchain: String, started: Date, seconds: Double, quick: Bool) -> String {
        var out = "# TweetieDB benchmarks\n\n"
        out += "Produced by `\(command)` (run from `Benchmarks/`; `make bench-compare` runs the full sizes)"
        out += quick ? " with **--quick sizes** (small n).\n\n" : ", full sizes.\n\n"
        out += "- Machine: \(machine)\n- Toolchain: `\(toolchain)`\n- Date: \(ISO8601DateFormatter().string(from: started)); the run took \(Format.fixed(seconds / 60, 1)) min\n"
        out += "- Build: release (`swift run -c release`). Peers: GRDB \(grdbVersion) on the system SQLite (WAL); raw LMDB through its C API.\n\n"
        out += "Ratio = TweetieDB / peer. For rates (records/s, commits/s) higher is better, so a ratio above 1 means TweetieDB is faster; for times and latencies lower is better, so a ratio below 1 means TweetieDB is faster.\n\n"
        out += "| Suite | Measure | TweetieDB | Peer | Peer figure | Ratio |\n|---|---|---|---|---|---|\n"
        let ordered = rows.enumerated().sorted { a, b in
            let sa = Int(a.element.suite.prefix { $0.isNumber }) ?? 0, sb = Int(b.element.suite.prefix { $0.isNumber }) ?? 0
            return sa != sb ? sa < sb : a.offset < b.offset
        }.map(\.element)
        for row in ordered {
            out += "| \(row.suite) | \(row.measure) | \(row.tweetie) | \(row.peer) | \(row.peerValue) | \(row.ratio) |\n"
        }
        out += "\n## Targets\n\n| Target | Measured | Met |\n|---|---|---|\n"
        for target in targets { out += "| \(target.name) | \(target.figure) | \(target.met ? "yes" : "**no**") |\n" }
        if !notes.isEmpty {
            out += "\n## Notes\n\n"
            for note in notes { out += "- \(note)\n" }
        }
        return out
    }

    private var grdbVersion: String { "7.10" }
}
