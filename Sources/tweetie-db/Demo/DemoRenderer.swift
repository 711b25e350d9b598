/// Draws the demo: on the live screen when there is one, as log lines otherwise.
final class DemoRenderer: @unchecked Sendable {
    private let screen: DemoScreen?

    init(screen: DemoScreen?) {
        self.screen = screen
    }

    func render(_ event: TimelineDemoEvent) {
        if let screen { return screen.render(event) }
        switch event {
        case .fetched(let tick, let r):
            Out.line("fetch \(tick + 1): \(r.received) received, \(r.inserted) new, \(r.modified) updated, \(r.deleted) deleted")
        case .failed(let tick, let message):
            Out.line("fetch \(tick + 1) failed: \(message)")
        case .update(let update):
            printLines(update)
        }
    }

    private func printLines(_ u: TimelineDemoUpdate) {
        let rows = u.sections.reduce(0) { $0 + $1.rows.count }
        if u.isInitial {
            Out.line("snapshot (sequence \(u.sequence)): \(u.sections.count) sections, \(rows) rows")
            return
        }
        Out.line("changeset (sequence \(u.sequence)): +\(u.insertedIds.count) ~\(u.modifiedIds.count) -\(u.deletedCount) >\(u.movedIds.count); \(u.sections.count) sections, \(rows) rows; \(u.appliedExactly ? "applied exactly" : "MISMATCH")")
        for section in u.sections {
            for row in section.rows where u.insertedIds.contains(row.id) || u.modifiedIds.contains(row.id) {
                let mark = u.insertedIds.contains(row.id) ? "+" : "~"
                Out.line("  \(mark) \(section.title) | \(VisibleText.line(row.handle)) \(row.relativeTime): \(VisibleText.line(String(row.text.prefix(100))))")
            }
        }
    }

    /// Leaves the screen (if any) and prints the summary.
    func finish(_ s: TimelineDemoSummary) {
        screen?.stop()
        Out.line("summary: \(s.ticks) fetches; \(s.tweetsStored) tweets stored (\(s.listTweets) in the list); \(s.commits) commits")
        Out.line("  fetched: \(s.ingested.inserted) inserted, \(s.ingested.modified) modified, \(s.ingested.deleted) deleted, \(s.ingested.unchanged) unchanged")
        Out.line("  changesets: \(s.changesets) delivered (\(s.rowsInserted) rows inserted, \(s.rowsModified) modified, \(s.rowsDeleted) deleted, \(s.rowsMoved) moved); \(s.inexactChangesets == 0 ? "every one applied exactly" : "\(s.inexactChangesets) did not apply exactly")")
    }
}
