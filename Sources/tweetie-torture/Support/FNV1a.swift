/// FNV-1a, 64 bits: a stable checksum (unlike `Hasher`, identical in every process).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
    }

    mutating func add(_ text: String) {
        add(text.utf8)
        add([0xFF])  // a separator no UTF-8 text contains
    }

    mutating func add(_ number: Int64) { withUnsafeBytes(of: number.littleEndian) { add($0) } }

    /// The checksum as 16 lowercase hex digits.
    var hex: String { Digest.hex(value) }
}
