import Foundation

/// A plain text table with aligned columns.
///
/// Rules: columns are measured and padded by display width (``DisplayWidth``); a column whose
/// every cell is a number (or a byte size such as `1.5 MiB`) is right-aligned; the last column is
/// cut to the terminal width, with `…`, only when `width` is given (a table going to a pipe or
/// file is never cut).
struct TextTable {
    var headers: [String]
    var rows: [[String]] = []

    /// Whether column `index` holds numbers only.
    func isNumeric(_ index: Int) -> Bool {
        !rows.isEmpty && rows.allSatisfy { row in
            index < row.count && row[index].wholeMatch(of: /-?[0-9][0-9,._]*( [KMGT]?i?B)?/) != nil
        }
    }

    func render(width: Int? = Terminal.width) -> String {
        var widths = headers.map(DisplayWidth.of)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayWidth.of(cell)) }
        }
        let fixed = widths.dropLast().reduce(0) { $0 + $1 + 2 }
        if let width, let last = widths.indices.last { widths[last] = max(10, min(widths[last], width - fixed)) }
        let numeric = widths.indices.map(isNumeric)
        func format(_ row: [String]) -> String {
            row.enumerated().map { i, cell in
                let text = DisplayWidth.truncate(cell, to: widths[i])
                return i == row.count - 1 && !numeric[i] ? text : DisplayWidth.pad(text, to: widths[i], alignRight: numeric[i])
            }.joined(separator: "  ")
        }
        return ([format(headers)] + rows.map(format)).joined(separator: "\n") + "\n"
    }
}
