import Foundation

/// Stored text as a terminal may show it: every character that would act on the terminal instead
/// of being drawn is drawn as a visible stand-in.
///
/// Why: tweets, names and paths come from outside (the network, an import file). Written raw, an
/// `ESC ] 0 ; … BEL` retitles the window, `ESC [ 2 J` clears the screen, a `CR` overwrites the
/// start of the line, and a bidirectional override reorders what follows it on the line.
///
/// Rules: C0 controls (U+0000–U+001F) become their Control Pictures (`ESC` is `␛`, `CR` `␍`,
/// `LF` `␊`, `TAB` `␉`), DEL `␡`; C1 controls (U+0080–U+009F), the bidirectional embeddings,
/// overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators
/// (U+2028, U+2029) become `<U+XXXX>`, as `less` shows them. Everything else, the implicit
/// direction marks (U+200E, U+200F, U+061C) of right-to-left text included, is left as it is.
/// Every table, field list and demo line goes through here; machine formats (JSON, NDJSON,
/// export) never do: they keep the exact text.
///
/// ```swift
/// VisibleText.of("a\u{1B}[2Jb")        // "a␛[2Jb"
/// VisibleText.line("one\ntwo\rthree")  // "one two␍three"
/// ```
enum VisibleText {
    /// `text` with every character that acts on a terminal replaced by its visible stand-in.
    static func of(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsStandIn) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsStandIn(scalar) else {
                out.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out.append("\u{2421}")
            default: out.append(contentsOf: "<U+\(hex(scalar.value))>".unicodeScalars)
            }
        }
        return String(out)
    }

    /// ``of(_:)`` for text shown on one line of a list: its line breaks (`LF`, `CR LF`) as
    /// spaces, anything else as ``of(_:)`` shows it.
    ///
    /// ```swift
    /// let cell = VisibleText.line(tweet.text)
    /// ```
    static func line(_ text: String) -> String {
        guard text.utf8.contains(0x0A) else { return of(text) }
        return of(text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " "))
    }

    /// Whether `scalar` would act on a terminal rather than be drawn.
    static func needsStandIn(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// At least four upper-case hexadecimal digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
