
/// The lines a `writer` prints: `intent` before a transaction commits, `ack` after.
///
/// `intent <op> <id>=<checksum|->,… <txsum>` and `ack <seq> <op> <id>=<checksum|->,… <txsum>`,
/// where `txsum` is the checksum of the item list (so a torn line can never pass as complete).
struct AckLine: Hashable, Sendable {
    enum Kind: String, Sendable { case intent, ack }

    var kind: Kind
    /// The change-log sequence of the commit (acks only; 0 for intents).
    var sequence: UInt64
    var op: String
    var items: [WrittenItem]

    var transactionChecksum: UInt64 {
        var h = FNV1a()
        h.add(op)
        for item in items {
            h.add(item.id)
            h.add(Int64(bitPattern: item.checksum ?? 0))
            h.add(item.checksum == nil ? 0 : 1)
        }
        return h.value
    }

    var text: String {
        let list = items.map { "\($0.id)=\($0.checksum.map(Digest.hex) ?? "-")" }.joined(separator: ",")
        switch kind {
        case .intent: return "intent \(op) \(list) \(Digest.hex(transactionChecksum))"
        case .ack: return "ack \(sequence) \(op) \(list) \(Digest.hex(transactionChecksum))"
        }
    }

    /// Parses a complete line; `nil` for anything else (other line kinds, torn lines).
    init?(parsing line: Substring) {
        let fields = line.split(separator: " ")
        guard let first = fields.first, let kind = Kind(rawValue: String(first)) else { return nil }
        let rest = kind == .ack ? fields.dropFirst(2) : fields.dropFirst(1)
        guard rest.count == 3 else { return nil }
        if kind == .ack {
            guard let sequence = UInt64(fields[1]) else { return nil }
            self.sequence = sequence
        } else {
            self.sequence = 0
        }
        self.kind = kind
        let parts = Array(rest)
        op = String(parts[0])
        var items: [WrittenItem] = []
        for entry in parts[1].split(separator: ",") {
            let pair = entry.split(separator: "=")
            guard pair.count == 2, let id = Int64(pair[0]) else { return nil }
            if pair[1] == "-" {
                items.append(WrittenItem(id: id, checksum: nil))
            } else {
                guard pair[1].count == 16, let checksum = UInt64(pair[1], radix: 16) else { return nil }
                items.append(WrittenItem(id: id, checksum: checksum))
            }
        }
        self.items = items
        guard !items.isEmpty, parts[2].count == 16, UInt64(parts[2], radix: 16) == transactionChecksum else { return nil }
    }

    init(kind: Kind, sequence: UInt64, op: String, items: [WrittenItem]) {
        self.kind = kind
        self.sequence = sequence
        self.op = op
        self.items = items
    }
}
