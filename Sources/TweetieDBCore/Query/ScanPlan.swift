/// The non-generic part of a ``QueryPlan`` that the inlinable scan loop needs.
@usableFromInline
struct ScanPlan: Sendable {
    @usableFromInline let database: Database
    @usableFromInline let records: Database
    @usableFromInline let range: KeyRange
    @usableFromInline let viaIndex: Bool
    @usableFromInline let walkIsSorted: Bool
    @usableFromInline let reverse: Bool

    /// Plans `query` (generic, once per query; the per-row loop is specialized by the caller).
    @usableFromInline
    static func make<R: Record>(_ query: Query<R>, descriptor: CollectionDescriptor) throws -> ScanPlan {
        ScanPlan(try QueryPlan(query, descriptor: descriptor))
    }

    /// The walk of a plan made already.
    init<R: Record>(_ plan: QueryPlan<R>) {
        database = plan.database
        records = plan.descriptor.records
        range = plan.range
        viaIndex = plan.viaIndex
        walkIsSorted = plan.walkIsSorted
        reverse = plan.reverse
    }

    /// A cursor on the records for an index walk's lookups, or `nil` for a key walk (close it
    /// when the walk ends). Index order is often close to key order (timelines by date, keys by
    /// id), and a cursor finds a key on its current leaf page without descending the tree again.
    @inlinable
    func lookupCursor<T: ReadableTransaction>(in transaction: T) throws -> Cursor? {
        viaIndex ? try transaction.cursor(on: records) : nil
    }

    /// The record of one walked entry: the entry's value is the record itself, or, in an index
    /// walk, the primary key of the record to look up with `lookup` (from
    /// ``lookupCursor(in:)``). Errors name the record's key.
    @inlinable
    func record<R: Record>(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, lookup: Cursor?,
                           descriptor: CollectionDescriptor, path: String, sharing: SharedStringTable?) throws -> R {
        let (bytes, primaryKey) = try storedRecord(key: key, value: value, lookup: lookup, descriptor: descriptor, path: path)
        do {
            return try R._decodeStored(bytes, sharing: sharing)
        } catch {
            throw descriptor.decodingFailed(error, key: Array(primaryKey), typeName: "\(R.self)", path: path)
        }
    }

    /// The stored bytes of one walked entry's record and its primary key, undecoded (views valid
    /// while the transaction is): the entry itself, or in an index walk the record looked up
    /// with `lookup`. A missing record throws, naming its key.
    @inlinable
    func storedRecord(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, lookup: Cursor?,
                      descriptor: CollectionDescriptor, path: String) throws -> (bytes: UnsafeRawBufferPointer, primaryKey: UnsafeRawBufferPointer) {
        guard viaIndex else { return (value, key) }
        guard let lookup else { preconditionFailure("an index walk looks records up with its lookupCursor(in:)") }
        guard let stored = try lookup.value(forRawKey: value) else {
            throw descriptor.danglingIndexEntry(key: Array(value), path: path)
        }
        return (stored, value)
    }
}
