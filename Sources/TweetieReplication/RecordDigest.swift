/// A record's identity for replication: 64-bit FNV-1a of its canonical JSON (the bytes
/// `RecordJSON.encoder()` writes for the decoded record), stable across processes and machines.
/// Two records with the same digest are taken to be the same value.
enum RecordDigest {
    /// The digest of a deleted or never-written record.
    static let absent: UInt64 = 0

    static func of(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        // 0 stands for "absent": a record whose hash is 0 takes 1 instead.
        return hash == absent ? 1 : hash
    }

    static func of(json: String?) -> UInt64 {
        guard var json else { return absent }
        // Over the string's contiguous bytes: the generic walk of its UTF-8 view costs several
        // times the hash itself, and every pushed and pulled record is digested.
        return json.withUTF8 { of($0) }
    }
}
