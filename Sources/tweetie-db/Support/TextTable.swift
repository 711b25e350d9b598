import Foundation

/// A plain text table with aligned columns.
///
/// Rules:
/// - Cells are shown through ``VisibleText`` (a control character never reaches the terminal),
///   measured and padded by display width (``DisplayWidth``); a column whose every cell is a
///   number (or a byte size such as `1.5 MiB`) is right-aligned.
/// - With a `width` (a terminal's, or `$COLUMNS`) every line fits it: the last column gives up
///   its room first, down to 10 columns; then the widest other text columns are cut to a common
///   width, so that short ones (a date, a handle) stay whole; numbers are cut only when nothing
///   else is left. A cut cell ends in `…`. Without a width (a pipe or a file) nothing is cut.
/// - A streamed table (``Layout``) takes its widths from its first rows; a later, wider cell is cut
///   to its column's width when there is a width (the last column to what is left of the line),
///   and otherwise pushes the rest of its row.
///
/// ```swift
/// var table = TextTable(headers: ["id", "name"])
/// table.rows.append(["7", "Jonas"])
/// Out.write(table.render())
/// ```
struct TextTable {
    var headers: [String]
    var rows: [[String]] = []

    /// The columns between two cells.
    static let gap = 2
    /// What the last column keeps before any other column is cut.
    static let lastColumnMinimum = 10

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
        let numeric = widths.indices.map(isNumeric)
        return Layout(widths: width.map { Self.fit(widths, numeric: numeric, into: $0) } ?? widths, numeric: numeric, width: width)
    }

    /// `widths` narrowed so that a line of them, with the gaps, takes at most `width` columns (by
    /// the rules above); every column keeps at least one.
    static func fit(_ widths: [Int], numeric: [Bool], into width: Int) -> [Int] {
        guard let last = widths.indices.last else { return widths }
        var fitted = widths
        let room = width - gap * last
        func excess() -> Int { fitted.reduce(0, +) - room }
        guard excess() > 0 else { return fitted }
        if !numeric[last] {
            fitted[last] = max(min(widths[last], lastColumnMinimum), fitted[last] - excess())
            guard excess() > 0 else { return fitted }
        }
        let text = widths.indices.filter { $0 != last && !numeric[$0] }
        capWidest(&fitted, of: text, by: excess())
        guard excess() > 0 else { return fitted }
        capWidest(&fitted, of: Array(widths.indices), by: excess())
        return fitted
    }

    /// Takes `excess` columns off `columns` of `widths`, from the widest down (they end at one
    /// common width, give or take one), never below one column each.
    private static func capWidest(_ widths: inout [Int], of columns: [Int], by excess: Int) {
        let total = columns.reduce(0) { $0 + widths[$1] }
        let target = max(columns.count, total - excess)
        guard total > target else { return }
        // The largest cap that keeps the columns' sum within target, then the columns left
        // below it get back what the cap took beyond that, first column first.
        var low = 1, high = columns.map { widths[$0] }.max() ?? 1
        while low < high {
            let middle = (low + high + 1) / 2
            if columns.reduce(0, { $0 + min(widths[$1], middle) }) <= target { low = middle } else { high = middle - 1 }
        }
        let cap = low
        var spare = target - columns.reduce(0) { $0 + min(widths[$1], cap) }
        for column in columns {
            let original = widths[column]
            widths[column] = min(original, cap)
            if spare > 0, original > cap {
                widths[column] += 1
                spare -= 1
            }
        }
    }

    /// Fixed column widths and alignments: formats any row, now or later.
    struct Layout {
        /// Each column's width in display columns.
        var widths: [Int]
        /// Whether each column is right-aligned.
        var numeric: [Bool]
        /// The columns a line may take, or nil when nothing is cut.
        var width: Int?

        /// `row` shown (``VisibleText``), padded and, when there is a width, cut to the layout,
        /// with a newline.
        ///
        /// ```swift
        /// Out.write(layout.line(["42", "@ann"]))
        /// ```
        func line(_ row: [String]) -> String {
            let last = widths.count - 1
            // What the last column may take: the rest of the line, or its width when that is more.
            let lastRoom = width.map { max(widths[last], $0 - widths.dropLast().reduce(0, +) - TextTable.gap * last) }
            let cells = row.enumerated().map { i, cell -> String in
                let text = VisibleText.of(cell)
                guard i < widths.count else { return text }
                let cut = width == nil ? text : DisplayWidth.truncate(text, to: i == last ? lastRoom! : widths[i])
                return i == last && !numeric[i] ? cut : DisplayWidth.pad(cut, to: widths[i], alignRight: numeric[i])
            }
            let line = cells.joined(separator: String(repeating: " ", count: TextTable.gap))
            // Only a width narrower than one column per cell and the gaps leaves a line too long.
            guard let width, DisplayWidth.of(line) > width else { return line + "\n" }
            return DisplayWidth.truncate(line, to: width) + "\n"
        }
    }
}
