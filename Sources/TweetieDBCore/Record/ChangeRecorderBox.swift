/// A reference box so that the recorder can be mutated through the `StoreWriter` value. Only the
/// writer's thread touches it, so its accesses skip runtime exclusivity checks.
@usableFromInline
final class ChangeRecorderBox {
    @exclusivity(unchecked) @usableFromInline var changes = TransactionChanges()
    @usableFromInline init() {}
}
