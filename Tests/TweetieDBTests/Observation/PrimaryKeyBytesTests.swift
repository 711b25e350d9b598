import Testing
@testable import TweetieDBCore

@Suite("PrimaryKeyBytes")
struct PrimaryKeyBytesTests {
    /// Keys of every length around the inline limit (16 bytes), including ones that differ only
    /// by trailing zeros, which the inline words alone cannot tell apart.
    private static let keys: [[UInt8]] = {
        var keys: [[UInt8]] = [[], [0], [0, 0], [1], [1, 0], [1, 0, 0]]
        for count in [7, 8, 9, 15, 16, 17, 24, 40] {
            let base = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            keys.append(base)
            keys.append(base + [0])
            var changedLast = base
            changedLast[count - 1] ^= 0x80
            keys.append(changedLast)
        }
        return keys
    }()

    @Test("equal exactly when the bytes are equal, with equal hashes, at every length")
    func equalityFollowsTheBytes() {
        for left in Self.keys {
            for right in Self.keys {
                let a = PrimaryKeyBytes(left), b = PrimaryKeyBytes(right)
                #expect((a == b) == (left == right), "\(left) against \(right)")
                if left == right { #expect(a.hashValue == b.hashValue, "\(left)") }
            }
        }
    }

    @Test("gives back its bytes, from an array or a raw buffer")
    func bytesRoundTrip() {
        for key in Self.keys {
            #expect(PrimaryKeyBytes(key).bytes == key)
            #expect(key.withUnsafeBytes { PrimaryKeyBytes($0) } == PrimaryKeyBytes(key))
        }
    }

    @Test("as a dictionary key, finds each key and only it")
    func dictionaryLookups() {
        var table: [PrimaryKeyBytes: Int] = [:]
        for (index, key) in Self.keys.enumerated() { table[PrimaryKeyBytes(key)] = index }
        #expect(table.count == Self.keys.count)
        for (index, key) in Self.keys.enumerated() { #expect(table[PrimaryKeyBytes(key)] == index, "\(key)") }
    }
}
