/// How many terminal columns text takes.
///
/// Rules: text is measured in grapheme clusters (what a reader sees as one character: `👨‍💻`,
/// `é` written as e and a combining accent), never in UTF-16 units or scalars. A cluster takes two
/// columns when it is East Asian Wide or Fullwidth (CJK, Hangul, fullwidth forms) or shown as an
/// emoji, none when it is only a combining mark or a zero-width format character, one otherwise.
/// A cut never splits a cluster, and is marked with `…`.
enum DisplayWidth {
    /// The columns `text` takes.
    static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one grapheme cluster takes: 0, 1 or 2.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if character.isASCII { return first.value < 0x20 || first.value == 0x7F ? 0 : 1 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation })
            || (first.properties.isEmoji && scalars.contains("\u{FE0F}")) {
            return 2
        }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        return isWide(first.value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth code points (Unicode's EastAsianWidth.txt, W and F).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` cut to at most `width` columns, ending in `…` when something was cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 0 else { return "" }
        var result = "", used = 0
        for character in text {
            let w = of(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// `text` in lines of at most `width` columns (at least 2), broken at the last space that
    /// fits (the space itself dropped), or inside a word longer than a line. Never splits a
    /// cluster; empty text is one empty line.
    ///
    /// ```swift
    /// DisplayWidth.wrap("hello wide world", to: 11)   // ["hello wide", "world"]
    /// ```
    static func wrap(_ text: String, to width: Int) -> [String] {
        let width = max(2, width)
        var lines: [String] = [], line = "", used = 0
        for character in text {
            let w = of(character)
            if used + w > width, !line.isEmpty {
                // Break after the line's last space when there is one (not at its very start).
                if character != " ", let space = line.lastIndex(of: " "), space != line.startIndex,
                   of(line[line.index(after: space)...]) + w <= width {
                    let rest = String(line[line.index(after: space)...])
                    lines.append(String(line[..<space]))
                    line = rest
                    used = of(rest)
                } else {
                    lines.append(line)
                    line = ""
                    used = 0
                }
                if character == " ", line.isEmpty { continue }
            }
            line.append(character)
            used += w
        }
        return lines + [line]
    }

    /// `text` padded with spaces to `width` columns, on the right (`alignRight` pads on the left).
    static func pad(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - of(text)))
        return alignRight ? padding + text : text + padding
    }
}
