/// A read-only transaction: a consistent snapshot. It has no write methods, so a write through a
/// read transaction does not compile.
///
/// Values passed to closures point into the memory map and are valid only inside the closure;
/// copy them out (``ReadableTransaction/value(for:in:)``) to keep them.
///
/// ```swift
/// try env.read { tx in
///     if let bytes = try tx.value(for: key, in: tweets) { print(bytes.count) }
/// }
/// ```
@usableFromInline struct ReadTransaction: ReadableTransaction {
    /// The transaction's shared state (internal).
    @usableFromInline let context: TransactionContext
}
