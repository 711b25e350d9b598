extension Store {
    /// One slot of LMDB's reader table, shared by every process that has the environment open.
    ///
    /// A slot with a ``transactionID`` is a live read transaction: it holds that snapshot, and LMDB
    /// cannot reuse pages freed by any later transaction until it ends.
    ///
    /// ```swift
    /// for slot in store.readerSlots() where slot.transactionID != nil { print(slot.processID) }
    /// ```
    public struct ReaderSlot: Sendable, Hashable, Codable {
        /// The process that owns the slot.
        ///
        /// ```swift
        /// print(slot.processID)
        /// ```
        public var processID: Int32
        /// The owning thread (`pthread_t`, as LMDB records it).
        ///
        /// ```swift
        /// print(String(slot.thread, radix: 16))
        /// ```
        public var thread: UInt64
        /// The snapshot the slot's read transaction holds, or `nil` when no read transaction is open in it.
        ///
        /// ```swift
        /// if let held = slot.transactionID { print("holds snapshot", held) }
        /// ```
        public var transactionID: Int?

        /// A slot as the reader table reports it.
        ///
        /// ```swift
        /// let slot = ReaderSlot(processID: 42, thread: 0x7f00, transactionID: 1_234)
        /// ```
        public init(processID: Int32, thread: UInt64, transactionID: Int?) {
            self.processID = processID
            self.thread = thread
            self.transactionID = transactionID
        }
    }
}
