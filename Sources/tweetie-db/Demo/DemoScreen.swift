import Foundation
import Synchronization
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

/// The demo's live screen on a terminal: the list timeline redrawn in place on the alternate
/// screen — a title, a status line (fetches, the last changeset, rows), then each section's header
/// and rows, inserted rows marked `+`, modified `~`, moved `>` in the update that brought them.
///
/// Rules:
/// - Every frame is drawn whole at the terminal's current size (`TIOCGWINSZ`, read again on
///   each frame and on `SIGWINCH`); lines are cut to the width and the rows to the height, and
///   the last line says how many rows did not fit.
/// - Every line is drawn through ``VisibleText`` (line breaks as spaces, control characters as
///   visible stand-ins such as `␛`): a tweet never moves the cursor or changes the terminal's state.
/// - ``stop()`` leaves the terminal as it found it (attributes reset, cursor shown, alternate screen
///   left) exactly once, whichever of the normal end, an error or a signal gets there first.
final class DemoScreen: Sendable {
    private let title: String
    private let ticks: Int
    private let state = Mutex(State())

    private struct State {
        var started = false
        var stopped = false
        var fetches = 0
        var lastFetch = "waiting for the first fetch"
        var updates = 0
        var last: TimelineDemoUpdate?
    }

    init(title: String, ticks: Int) {
        self.title = title
        self.ticks = ticks
    }

    /// The sequences that enter the screen: alternate screen, cursor hidden, cleared.
    static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
    /// The sequences that restore the terminal: attributes reset, cursor shown, alternate screen left.
    static let leave = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// Switches to the alternate screen and draws the first frame.
    func start() {
        state.withLock { state in
            guard !state.started else { return }
            state.started = true
            Out.write(Self.enter + frame(state, size: Self.size()))
        }
    }

    /// Records `event` and redraws.
    func render(_ event: TimelineDemoEvent) {
        state.withLock { state in
            switch event {
            case .fetched(let tick, let r):
                state.fetches = tick + 1
                state.lastFetch = "\(r.received) received, \(r.inserted) new, \(r.modified) updated, \(r.deleted) deleted"
            case .failed(let tick, let message):
                state.fetches = tick + 1
                state.lastFetch = "failed: \(message)"
            case .update(let update):
                state.updates += 1
                state.last = update
            }
            draw(state)
        }
    }

    /// Redraws at the terminal's current size (after `SIGWINCH`).
    func redraw() {
        state.withLock { draw($0) }
    }

    /// Restores the terminal; later calls do nothing.
    func stop() {
        state.withLock { state in
            guard state.started, !state.stopped else { return }
            state.stopped = true
            Out.write(Self.leave)
        }
    }

    private func draw(_ state: State) {
        guard state.started, !state.stopped else { return }
        Out.write(frame(state, size: Self.size()))
    }

    /// The terminal's rows and columns (24 × 80 when it does not say).
    static func size() -> (rows: Int, columns: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return (24, 80) }
        return (size.ws_row > 0 ? Int(size.ws_row) : 24, size.ws_col > 0 ? Int(size.ws_col) : 80)
    }

    /// One whole frame: each line positioned, drawn, and the rest of it erased; then everything
    /// below the last line erased.
    private func frame(_ state: State, size: (rows: Int, columns: Int)) -> String {
        let width = max(10, size.columns)
        var lines: [(text: String, style: String)] = [(title, "1")]
        var status = "fetch \(state.fetches)/\(ticks)"
        if let u = state.last {
            status += " · \(u.sections.reduce(0) { $0 + $1.rows.count }) rows in \(u.sections.count) sections · "
            status += u.isInitial
                ? "snapshot (sequence \(u.sequence))"
                : "changeset \(state.updates - 1): +\(u.insertedIds.count) ~\(u.modifiedIds.count) -\(u.deletedCount) >\(u.movedIds.count) \(u.appliedExactly ? "applied exactly" : "MISMATCH") (sequence \(u.sequence))"
        }
        status += " · last fetch: \(state.lastFetch)"
        lines.append((status, state.last?.appliedExactly == false ? "31" : "2"))
        var hidden = 0
        if let u = state.last {
            let room = max(0, size.rows - lines.count)
            var body: [(text: String, style: String)] = []
            for section in u.sections {
                body.append((" \(section.title)  (\(section.key), \(section.rows.count) tweets)", "7"))
                for row in section.rows {
                    let (mark, style) = u.insertedIds.contains(row.id) ? ("+", "32") : u.modifiedIds.contains(row.id) ? ("~", "33") : u.movedIds.contains(row.id) ? (">", "36") : (" ", "0")
                    body.append(("\(mark) \(DisplayWidth.pad(row.relativeTime, to: 6)) \(DisplayWidth.pad(row.handle, to: Self.handleWidth)) \(row.text)", style))
                }
            }
            if body.count > room {
                hidden = body.dropFirst(max(0, room - 1)).filter { $0.style != "7" }.count
                body = Array(body.prefix(max(0, room - 1)))
            }
            lines += body
        }
        if hidden > 0 { lines.append(("… \(hidden) more rows below", "2")) }
        var out = ""
        for (index, line) in lines.prefix(size.rows).enumerated() {
            out += "\u{1B}[\(index + 1);1H\u{1B}[\(line.style)m\(Self.fit(line.text, width: width))\u{1B}[0m\u{1B}[K"
        }
        // Erase what an earlier, longer frame left below (at the bottom row, the cursor could not
        // go below the frame: erasing from there would erase its last line).
        if lines.count < size.rows { out += "\u{1B}[\(lines.count + 1);1H\u{1B}[J" }
        return out
    }

    /// The columns a row's handle is padded to (Twitter handles have at most 15 characters, and the `@`).
    static let handleWidth = 16

    /// `text` on one line, as ``VisibleText/line(_:)`` shows it, cut with `…` to `width` columns.
    static func fit(_ text: String, width: Int) -> String {
        DisplayWidth.truncate(VisibleText.line(text), to: width)
    }
}
