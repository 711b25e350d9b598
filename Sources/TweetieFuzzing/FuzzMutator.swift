import TweetieSync

/// Seeded, deterministic mutations of byte strings for the coverage-free fuzz harness: byte flips,
/// truncations, duplications, splices, number/quote/brace edits, huge lengths and deep nesting.
///
/// ```swift
/// var mutator = FuzzMutator(seed: 42)
/// let input = mutator.mutate(Array("[{\"id\":1}]".utf8), splice: [])
/// ```
package struct FuzzMutator {
    /// The kinds of mutation, in the order ``mutate(_:splice:)`` draws them from.
    package enum Kind: CaseIterable, Sendable {
        case flipBit, setByte, truncate, deleteRange, duplicateRange, splice
        case numberEdit, quoteEdit, braceEdit, hugeLength, deepNesting, invalidUTF8
        case duplicateLine, deleteLine, swapLines
    }

    private var random: SplitMix64
    /// The largest input a mutation may produce (huge-length and nesting mutations stay under it).
    package var maximumSize: Int

    /// Creates a mutator whose output depends only on `seed`.
    ///
    /// ```swift
    /// var mutator = FuzzMutator(seed: 1, maximumSize: 1 << 21)
    /// ```
    package init(seed: UInt64, maximumSize: Int = 3 << 20) {
        random = SplitMix64(seed: seed)
        self.maximumSize = maximumSize
    }

    /// A random integer in `0..<bound` (`bound` > 0).
    package mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    /// True with probability 1/`n`.
    package mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }

    /// Applies one to four mutations to `input`; `splice` is another input to splice from.
    ///
    /// ```swift
    /// let mutated = mutator.mutate(seedA, splice: seedB)
    /// ```
    package mutating func mutate(_ input: [UInt8], splice: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + below(4)) {
            let kind = Kind.allCases[below(Kind.allCases.count)]
            bytes = apply(kind, to: bytes, splice: splice)
            if bytes.count > maximumSize { bytes.removeLast(bytes.count - maximumSize) }
        }
        return bytes
    }

    private static let interestingBytes: [UInt8] = Array("\"\\{}[],:\n\r\t 0-e.".utf8) + [0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xED, 0xF4, 0xFF]
    private static let interestingNumbers = [
        "0", "-0", "1", "-1", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "1e308", "1e999", "-1e999", "1.5", "0.0000001", "00012", "1E-400",
        "4294967296", "2147483648", "99999999999999999999999999999999999999", "NaN", "Infinity", "-",
    ]
    private static let interestingStrings = [
        "\"", "\\", "\\u0000", "\\ud800", "\\udfff\\ud800", "\\u12", "null", "true", "{}", "[]", "\"\":",
        "\"id\":", "\"id_str\":\"x\"", "\"created_at\":\"Mon Feb 30 25:61:61 +9999 2018\"", "\"user\":null",
        "\"collection\":\"tweets\"", "\"record\":{}", "\"version\":2", "\"count\":-1", "\n", "\n\n",
    ]

    private mutating func position(in bytes: [UInt8]) -> Int { bytes.isEmpty ? 0 : below(bytes.count + 1) }

    private mutating func range(in bytes: [UInt8], maxLength: Int = 256) -> Range<Int> {
        guard !bytes.isEmpty else { return 0..<0 }
        let start = below(bytes.count)
        let length = 1 + below(min(maxLength, bytes.count - start))
        return start..<(start + length)
    }

    private mutating func apply(_ kind: Kind, to input: [UInt8], splice other: [UInt8]) -> [UInt8] {
        var bytes = input
        switch kind {
        case .flipBit:
            guard !bytes.isEmpty else { return [UInt8(truncatingIfNeeded: random.next())] }
            bytes[below(bytes.count)] ^= UInt8(1 << below(8))
        case .setByte:
            let byte = Self.interestingBytes[below(Self.interestingBytes.count)]
            if bytes.isEmpty || oneIn(2) { bytes.insert(byte, at: position(in: bytes)) } else { bytes[below(bytes.count)] = byte }
        case .truncate:
            bytes = Array(bytes.prefix(position(in: bytes)))
        case .deleteRange:
            bytes.removeSubrange(range(in: bytes))
        case .duplicateRange:
            let r = range(in: bytes, maxLength: 4096)
            bytes.insert(contentsOf: bytes[r], at: position(in: bytes))
        case .splice:
            let source = other.isEmpty ? bytes : other
            let cut = position(in: bytes)
            let from = source.isEmpty ? 0 : below(source.count)
            bytes = Array(bytes.prefix(cut)) + source[from...]
        case .numberEdit:
            let number = Array(Self.interestingNumbers[below(Self.interestingNumbers.count)].utf8)
            if let digits = digitRun(in: bytes) { bytes.replaceSubrange(digits, with: number) } else { bytes.insert(contentsOf: number, at: position(in: bytes)) }
        case .quoteEdit:
            let quotes = bytes.indices.filter { bytes[$0] == 0x22 }
            if !quotes.isEmpty, oneIn(2) {
                bytes.remove(at: quotes[below(quotes.count)])
            } else {
                let text = Array(Self.interestingStrings[below(Self.interestingStrings.count)].utf8)
                bytes.insert(contentsOf: text, at: position(in: bytes))
            }
        case .braceEdit:
            let braces = bytes.indices.filter { [0x7B, 0x7D, 0x5B, 0x5D].contains(bytes[$0]) }
            if !braces.isEmpty, oneIn(2) {
                bytes.remove(at: braces[below(braces.count)])
            } else {
                bytes.insert(Array("{}[]".utf8)[below(4)], at: position(in: bytes))
            }
        case .hugeLength:
            // A long run inside a string (after a quote when there is one), up to ~2 MiB.
            let lengths = [1 << 10, 1 << 14, 70_000, 1 << 20, (1 << 20) + 7, 2 << 20]
            let length = lengths[below(oneIn(8) ? lengths.count : 3)]
            let quotes = bytes.indices.filter { bytes[$0] == 0x22 }
            let at = quotes.isEmpty ? position(in: bytes) : quotes[below(quotes.count)] + 1
            let fill: [UInt8] = oneIn(2) ? Array("a".utf8) : Array("\\u00e9".utf8)
            var run: [UInt8] = []
            run.reserveCapacity(length)
            while run.count < length { run.append(contentsOf: fill) }
            bytes.insert(contentsOf: run, at: at)
        case .deepNesting:
            let depths = [64, 513, 2_000, 100_000]
            let depth = depths[below(oneIn(4) ? depths.count : 3)]
            let open: UInt8 = oneIn(2) ? 0x5B : 0x7B
            var nest: [UInt8] = []
            if open == 0x5B {
                nest = Array(repeating: 0x5B, count: depth)
                if oneIn(2) { nest += Array(repeating: 0x5D, count: depth) }
            } else {
                let level = Array("{\"a\":".utf8)
                for _ in 0..<depth { nest.append(contentsOf: level) }
                nest.append(contentsOf: Array("1".utf8))
                if oneIn(2) { nest += Array(repeating: 0x7D, count: depth) }
            }
            bytes.insert(contentsOf: nest, at: position(in: bytes))
        case .invalidUTF8:
            let sequences: [[UInt8]] = [[0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xC0, 0xAF], [0xEF, 0xBB, 0xBF]]
            bytes.insert(contentsOf: sequences[below(sequences.count)], at: position(in: bytes))
        case .duplicateLine, .deleteLine, .swapLines:
            var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            guard lines.count > 1 else { return apply(.flipBit, to: bytes, splice: other) }
            let a = below(lines.count), b = below(lines.count)
            switch kind {
            case .duplicateLine: lines.insert(lines[a], at: b)
            case .deleteLine: lines.remove(at: a)
            default: lines.swapAt(a, b)
            }
            bytes = Array(lines.joined(separator: [0x0A]))
        }
        return bytes
    }

    private mutating func digitRun(in bytes: [UInt8]) -> Range<Int>? {
        guard !bytes.isEmpty else { return nil }
        let isDigit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
        let startSearch = below(bytes.count)
        guard let first = bytes[startSearch...].firstIndex(where: isDigit) ?? bytes.firstIndex(where: isDigit) else { return nil }
        var start = first, end = first
        while start > 0, isDigit(bytes[start - 1]) || bytes[start - 1] == 0x2D { start -= 1 }
        while end < bytes.count, isDigit(bytes[end]) || bytes[end] == 0x2E { end += 1 }
        return start..<end
    }
}
