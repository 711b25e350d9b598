/// The inlinable fast path of ``RecordFieldReader/nextField()``: the common entry shapes
/// (a key shorter than 128 bytes; a fixed-size value or one shorter than 2 MiB) are
/// measured inline. Anything else, including every malformed entry, returns `nil` so that
/// the fully checked path (``RecordFieldReader/nextFieldChecked()``) handles it and reports
/// the error. Both accept exactly the same entries.
extension RecordFieldReader {
    @inlinable @inline(__always)
    mutating func nextFieldFast() -> RecordField? {
        let keyLength = Int(base[position])
        guard keyLength < 0x80 else {
            return nil
        }
        let keyStart = position + 1
        let valueStart = keyStart + keyLength
        guard valueStart < end else {
            return nil
        }
        // Tags as in RecordFormat.Tag (literals: this code is inlined into other modules).
        let valueEnd: Int
        switch base[valueStart] {
        case 0x00, 0x01, 0x02:                  // nil, false, true
            valueEnd = valueStart + 1
        case 0x03, 0x04:                        // unsigned / signed varint
            var index = valueStart + 1
            let limit = min(end, valueStart + 11)
            while index < limit, base[index] >= 0x80 {
                index += 1
            }
            guard index < limit else {
                return nil
            }
            valueEnd = index + 1
        case 0x05, 0x09:                        // Double, Date
            valueEnd = valueStart + 9
        case 0x06:                              // Float
            valueEnd = valueStart + 5
        case 0x0B:                              // UUID
            valueEnd = valueStart + 17
        case 0x07, 0x08, 0x0A, 0x0C, 0x0D:      // length-prefixed
            // A length of up to three varint bytes (< 2 MiB); longer ones take the checked path.
            var index = valueStart + 1
            var length = 0
            var shift = 0
            while true {
                guard index < end, shift < 21 else {
                    return nil
                }
                let byte = base[index]
                length |= Int(byte & 0x7F) << shift
                index += 1
                if byte < 0x80 {
                    break
                }
                shift += 7
            }
            valueEnd = index + length
        default:
            return nil
        }
        guard valueEnd <= end else {
            return nil
        }
        position = valueEnd
        return RecordField(name: RecordFieldName(base: base, start: keyStart, count: keyLength), value: valueStart, end: valueEnd, sharing: sharing)
    }
}
