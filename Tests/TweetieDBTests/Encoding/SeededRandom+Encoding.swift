import Foundation
import TweetieTestSupport

/// Value generators for the encoding property tests, on the shared seeded generator.
extension SeededRandom {
    /// Damages `bytes` in 1…4 places: a flipped bit or a random byte each.
    mutating func corrupt(_ bytes: inout [UInt8]) {
        for _ in 0..<Int.random(in: 1...4, using: &self) {
            let index = Int.random(in: 0..<bytes.count, using: &self)
            if Bool.random(using: &self) {
                bytes[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &self)
            } else {
                bytes[index] = UInt8.random(in: 0...255, using: &self)
            }
        }
    }

    /// A short string over a tiny alphabet (NUL, 0x01, 0xFF-ish scalars, ASCII, multi-byte) so
    /// that prefixes, equal strings and embedded NULs are frequent.
    mutating func keyString() -> String {
        let alphabet: [Unicode.Scalar] = ["\u{0}", "\u{1}", "a", "b", "\u{7F}", "\u{FF}", "é", "\u{10FFFF}"]
        let length = Int.random(in: 0...4, using: &self)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            scalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &self)])
        }
        return String(scalars)
    }

    /// An Int64 biased towards edge values and small numbers.
    mutating func int64() -> Int64 {
        switch Int.random(in: 0..<4, using: &self) {
        case 0: return [Int64.min, Int64.min + 1, -1, 0, 1, Int64.max - 1, Int64.max].randomElement(using: &self)!
        case 1: return Int64.random(in: -3...3, using: &self)
        default: return Int64(bitPattern: next())
        }
    }

    mutating func int32() -> Int32 {
        Int.random(in: 0..<3, using: &self) == 0 ? Int32.random(in: -2...2, using: &self) : Int32(truncatingIfNeeded: next())
    }

    /// A Double biased towards edge values: ±0, ±∞, subnormals, equal values.
    mutating func double() -> Double {
        switch Int.random(in: 0..<4, using: &self) {
        case 0:
            return [0.0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
                    .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1, -1].randomElement(using: &self)!
        case 1:
            return Double(Int.random(in: -3...3, using: &self))
        default:
            let value = Double(bitPattern: next())
            return value.isNaN ? 0.5 : value
        }
    }

    mutating func uuid() -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let choice = Int.random(in: 0..<3, using: &self)
        withUnsafeMutableBytes(of: &bytes) { raw in
            for index in raw.indices {
                raw[index] = choice == 0 ? UInt8.random(in: 0...1, using: &self) : UInt8.random(in: 0...255, using: &self)
            }
        }
        return UUID(uuid: bytes)
    }
}
