import Foundation

extension JSONScratch {
    // Each writes one scalar's text at the end of `text` and makes it the value of `slot`, which
    // the caller has checked is unset (a new entry, or `requireUnset`).

    func writeNull(to slot: Int) { set(slot) { JSONValueText.writeNull(into: &$0) } }
    func write(_ value: Bool, to slot: Int) { set(slot) { JSONValueText.writeBool(value, into: &$0) } }
    func write(integer value: Int64, to slot: Int) { set(slot) { JSONValueText.writeInteger(value, into: &$0) } }
    func write(unsigned value: UInt64, to slot: Int) { set(slot) { JSONValueText.writeUnsigned(value, into: &$0) } }
    func write(_ value: String, to slot: Int) { set(slot) { JSONValueText.writeString(value, into: &$0) } }

    /// A finite `Double`; NaN and the infinities are ``Unsupported`` (`JSONEncoder` refuses them
    /// with its own error).
    func write(_ value: Double, to slot: Int) throws {
        guard value.isFinite else { throw unsupported() }
        set(slot) { JSONValueText.writeFloatingPoint(value.description, into: &$0) }
    }

    /// A finite `Float`; NaN and the infinities are ``Unsupported``.
    func write(_ value: Float, to slot: Int) throws {
        guard value.isFinite else { throw unsupported() }
        set(slot) { JSONValueText.writeFloatingPoint(value.description, into: &$0) }
    }

    /// A date as `RecordJSON.encoder()` writes it: a string, ISO 8601 with milliseconds; a date
    /// with no such text is ``Unsupported`` (the encoder's own error then says why).
    func write(_ value: Date, to slot: Int) throws {
        guard ISO8601.hasText(value) else { throw unsupported() }
        set(slot) { JSONValueText.writeDate(value, into: &$0) }
    }

    @inline(__always)
    private func set(_ slot: Int, _ write: (inout [UInt8]) -> Void) {
        let start = text.count
        write(&text)
        setText(slot, from: start)
    }
}
