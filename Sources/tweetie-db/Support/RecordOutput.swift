import Foundation
import TweetieSync

/// Prints one record or report in `format` (see ``OutputFormat`` for the rule): what `table`
/// returns, pretty-printed JSON, or one compact JSON line.
///
/// ```swift
/// try printRecord(tweet, format: OutputFormat.resolve(format, for: .report)) {
///     fieldTable([("id", "\(tweet.id)"), ("text", tweet.text)])
/// }
/// ```
func printRecord<R: Encodable>(_ record: R, format: OutputFormat, table: () -> String) throws {
    switch format {
    case .table:
        Out.write(table())
    case .json:
        let encoder = RecordJSON.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        Out.line(String(decoding: try encoder.encode(record), as: UTF8.self))
    case .ndjson:
        Out.line(String(decoding: try RecordJSON.encoder().encode(record), as: UTF8.self))
    }
}

/// Prints records as what `table` returns, a JSON array (one record per line) or NDJSON.
///
/// ```swift
/// try printRecords(users, format: .ndjson) { users in users.map { "@\($0.username)\n" }.joined() }
/// ```
func printRecords<R: Encodable>(_ records: [R], format: OutputFormat, table: ([R]) -> String) throws {
    if format == .table { return Out.write(table(records)) }
    var printer = RecordListPrinter<R>(format: format, headers: [], row: { _ in [] })
    try printer.print(records)
    printer.finish()
}

/// A table of `(name, value)` lines, as `tweets show`, `users show` and `stats` print one record:
/// the names padded to at least 10 columns, then two spaces and the value, in full.
///
/// Rules: names and values are shown through ``VisibleText``; a value's own line breaks start
/// new lines under the value column. With a `width` (a terminal's, or `$COLUMNS`) a longer value
/// is wrapped there (``DisplayWidth/wrap(_:to:)``) instead of being cut: nothing of the record is
/// lost, and no line is wider than `width`. Without one, each value line is written whole.
///
/// ```swift
/// Out.write(fieldTable([("id", "7"), ("name", "Jonas")]))   // "id          7\nname        Jonas\n"
/// ```
func fieldTable(_ fields: [(String, String)], width: Int? = Terminal.width) -> String {
    let names = fields.map { VisibleText.of($0.0) }
    let nameWidth = max(10, names.map(DisplayWidth.of).max() ?? 0)
    let indent = String(repeating: " ", count: nameWidth + 2)
    var out = ""
    for (name, (_, value)) in zip(names, fields) {
        let lines = value.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { line -> [String] in
                let shown = VisibleText.of(String(line))
                return width.map { DisplayWidth.wrap(shown, to: $0 - nameWidth - 2) } ?? [shown]
            }
        for (index, line) in lines.enumerated() {
            out += (index == 0 ? DisplayWidth.pad(name, to: nameWidth) + "  " : indent) + line + "\n"
        }
    }
    return out
}

/// Prints a list of records as it is read, a page at a time, without holding the whole list.
///
/// Rules: `table` writes the headers before the first page and takes the column widths from the
/// first page (``TextTable/Layout``); `json` streams one array, a record per line, closed by
/// ``finish()`` (`[]` when empty); `ndjson` writes a compact line per record. Each page is one
/// write.
///
/// ```swift
/// var printer = RecordListPrinter<User>(format: .json, headers: ["id", "username"]) { ["\($0.id)", "@\($0.username)"] }
/// try printer.print(firstPage)
/// try printer.print(secondPage)
/// printer.finish()
/// ```
struct RecordListPrinter<R: Encodable> {
    let format: OutputFormat
    let headers: [String]
    let row: (R) -> [String]
    private let encoder = RecordJSON.encoder()
    private var layout: TextTable.Layout?
    /// Records printed so far.
    private(set) var count = 0

    init(format: OutputFormat, headers: [String], row: @escaping (R) -> [String]) {
        self.format = format
        self.headers = headers
        self.row = row
    }

    /// Prints the next records.
    mutating func print(_ page: [R]) throws {
        var text = ""
        switch format {
        case .table:
            if layout == nil {
                let table = TextTable(headers: headers, rows: page.map(row))
                let layout = table.layout()
                self.layout = layout
                text = ([table.headers] + table.rows).map(layout.line).joined()
            } else if let layout {
                text = page.map { layout.line(row($0)) }.joined()
            }
        case .json:
            for (i, record) in page.enumerated() {
                text += (count + i == 0 ? "[\n" : ",\n") + String(decoding: try encoder.encode(record), as: UTF8.self)
            }
        case .ndjson:
            for record in page { text += String(decoding: try encoder.encode(record), as: UTF8.self) + "\n" }
        }
        count += page.count
        Out.write(text)
    }

    /// Ends the list: closes the JSON array; a table with no rows still gets its headers.
    mutating func finish() {
        switch format {
        case .json: Out.write(count == 0 ? "[]\n" : "\n]\n")
        case .table where layout == nil: try? print([])
        default: break
        }
    }
}

/// A stored date as tables show it: its record JSON text, or what it is when it has none (a NaN or
/// infinite date, or one beyond about 292 million years from 1970, written through the Swift API):
/// a listing shows such a record instead of stopping at it.
///
/// ```swift
/// displayDate(tweet.created)   // "2018-12-08T08:47:15.000Z", or "no date (nan s from 1970)"
/// ```
func displayDate(_ date: Date) -> String {
    RecordJSON.hasText(date) ? RecordJSON.string(from: date) : "no date (\(date.timeIntervalSince1970) s from 1970)"
}
