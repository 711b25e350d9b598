import Foundation

extension Store {
    /// Writes a hot, consistent copy of `data.mdb` (free pages left out when `compact`) into an
    /// open file descriptor: a pipe, standard output, a file the caller opened.
    ///
    /// Rules: the descriptor is written from its current position and is neither flushed, closed
    /// nor renamed: whoever opened it decides what a complete copy is. The bytes are those of a
    /// `data.mdb` that ``backup(to:compact:)`` would write; a directory holding them as `data.mdb`
    /// is a database. Other processes keep reading and writing meanwhile.
    ///
    /// ```swift
    /// try store.backup(toFileDescriptor: STDOUT_FILENO)
    /// ```
    public func backup(toFileDescriptor fileDescriptor: Int32, compact: Bool = true) throws(StoreError) {
        try environment.copy(toFileDescriptor: fileDescriptor, compact: compact)
    }
}
