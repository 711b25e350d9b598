import Foundation

/// A plain text table with aligned columns.
///
/// Rules: cells are shown through ``VisibleText`` (a control character never reaches the
/// terminal); columns are measured and padded by display width (``DisplayWidth``); a column whose
/// every cell is a number (or a byte size such as `1.5 MiB`) is right-aligned; the last column is
/// cut to the terminal width, with `…`, only when `width` is given (a table going to a pipe or
/// file is never cut). A streamed table (``Layout``) takes its widths from its first rows; a
/// later, wider cell is never cut but pushes the rest of its row.
///
/// ```swift
/// var table = TextTable(headers: ["id", "name"])
/// table.rows.append(["7", "Jonas"])
/// Out.write(table.render())
/// ```
struct TextTable {
    var headers: [String]
    var rows: [[String]] = []

    /// Whether column `index` holds numbers only.
    func isNumeric(_ index: Int) -> Bool {
        !rows.isEmpty && rows.allSatisfy { row in
            index < row.count && row[index].wholeMatch(of: /-?[0-9][0-9,._]*( [KMGT]?i?B)?/) != nil
        }
    }

    /// The table as lines of text, each ending in a newline.
    func render(width: Int? = Terminal.width) -> String {
        let layout = layout(width: width)
        return ([headers] + rows).map(layout.line).joined()
    }

    /// The column widths and alignments of these headers and rows, for rows printed later too.
    ///
    /// ```swift
    /// let layout = firstPage.layout()
    /// Out.write(layout.line(firstPage.headers))
    /// for row in laterRows { Out.write(layout.line(row)) }
    /// ```
    func layout(width: Int? = Terminal.width) -> Layout {
        var widths = headers.map { DisplayWidth.of(VisibleText.of($0)) }
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayWidth.of(VisibleText.of(cell))) }
        }
        var lastWidth: Int?
        if let width, let last = widths.indices.last {
            let fixed = widths.dropLast().reduce(0) { $0 + $1 + 2 }
            widths[last] = max(10, min(widths[last], width - fixed))
            lastWidth = widths[last]
        }
        return Layout(widths: widths, numeric: widths.indices.map(isNumeric), lastWidth: lastWidth)
    }

    /// Fixed column widths and alignments: formats any row, now or later.
    struct Layout {
        /// Each column's width in display columns.
        var widths: [Int]
        /// Whether each column is right-aligned.
        var numeric: [Bool]
        /// What the last column is cut to, or nil when nothing is cut.
        var lastWidth: Int?

        /// `row` shown (``VisibleText``), padded (and its last cell cut) to the layout, with a newline.
        ///
        /// ```swift
        /// Out.write(layout.line(["42", "@ann"]))
        /// ```
        func line(_ row: [String]) -> String {
            row.enumerated().map { i, raw in
                let cell = VisibleText.of(raw)
                guard i < widths.count else { return cell }
                let isLast = i == widths.count - 1
                let text = isLast && lastWidth != nil ? DisplayWidth.truncate(cell, to: lastWidth!) : cell
                return isLast && !numeric[i] ? text : DisplayWidth.pad(text, to: widths[i], alignRight: numeric[i])
            }.joined(separator: "  ") + "\n"
        }
    }
}
