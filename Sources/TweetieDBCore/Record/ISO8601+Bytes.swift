import Foundation

extension ISO8601 {
    /// The first and last whole millisecond (since 1970) that ``append(_:to:)`` writes digit by digit:
    /// 0000-01-01T00:00:00.000Z up to 9999-12-31T23:59:59.999Z, the dates whose year has four
    /// digits and no sign.
    static let fastMilliseconds: ClosedRange<Double> = -62_167_219_200_000 ... 253_402_300_799_999

    /// Appends ``string(from:)``'s text for `date` (without quotes) to `out`, byte for byte, from
    /// the same `gmtime_r` but with no `String`s.
    ///
    /// Why: an export writes a date or two per record; ``string(from:)`` builds a dozen small
    /// strings for each. Dates outside ``fastMilliseconds`` (and NaN) go through
    /// ``string(from:)`` itself, so nothing about them changes.
    ///
    /// ```swift
    /// ISO8601.append(Date(timeIntervalSince1970: 1_544_259_600), to: &bytes) // 2018-12-08T09:00:00.000Z
    /// ```
    static func append(_ date: Date, to out: inout [UInt8]) {
        let scaled = (date.timeIntervalSince1970 * 1000).rounded()
        guard fastMilliseconds.contains(scaled) else {
            out.append(contentsOf: string(from: date).utf8)
            return
        }
        let totalMilliseconds = Int64(scaled)
        var seconds = time_t(totalMilliseconds >= 0 ? totalMilliseconds / 1000 : (totalMilliseconds - 999) / 1000)
        let milliseconds = Int32(totalMilliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            func put(_ value: Int32, _ width: Int, at end: Int) {
                var remaining = value
                for position in stride(from: end - 1, through: end - width, by: -1) {
                    text[position] = 0x30 &+ UInt8(remaining % 10)
                    remaining /= 10
                }
            }
            put(parts.tm_year + 1900, 4, at: 4)
            text[4] = 0x2D // -
            put(parts.tm_mon + 1, 2, at: 7)
            text[7] = 0x2D
            put(parts.tm_mday, 2, at: 10)
            text[10] = 0x54 // T
            put(parts.tm_hour, 2, at: 13)
            text[13] = 0x3A // :
            put(parts.tm_min, 2, at: 16)
            text[16] = 0x3A
            put(parts.tm_sec, 2, at: 19)
            text[19] = 0x2E // .
            put(milliseconds, 3, at: 23)
            text[23] = 0x5A // Z
            out.append(contentsOf: UnsafeBufferPointer(text))
        }
    }
}
