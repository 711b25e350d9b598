
/// The live results of a query, as an `AsyncSequence`: the initial results first, then the new
/// results with an exact changeset after each commit (from any process) that changes them.
///
/// Elements are computed when the consumer asks for them: a slow consumer receives one changeset
/// spanning several commits, still exact. Cancelling the consuming task ends the sequence and
/// frees everything; no read transaction stays open between elements.
///
/// ```swift
/// let query = Query<Tweet>().sorted(byIndex: "created")
/// for try await change in store.observe(query) {
///     render(change.results, animating: change.changeset)
/// }
/// ```
public struct QueryObservation<R: Record>: AsyncSequence, Sendable {
    /// Each element: results and changeset.
    public typealias Element = QueryChange<R>
    /// Errors from reading the store.
    public typealias Failure = any Error

    let store: Store
    let query: Query<R>
    let fields: [ObservedField<R>]?
    /// Whether commits that leave the results unchanged yield an element too.
    let everyCommit: Bool
    /// Reads the initial results: a closure made by ``Store/observe(_:modificationsOf:everyCommit:)``,
    /// which is inlinable, so that the loop runs specialized for the caller's record type.
    let initialResults: InitialResults

    @usableFromInline
    typealias InitialResults = @Sendable (LiveQueryCore<R, EncodedKey>) throws -> RankedTree<EncodedKey, R>

    @usableFromInline
    init(store: Store, query: Query<R>, fields: [ObservedField<R>]?, everyCommit: Bool, initialResults: @escaping InitialResults) {
        self.store = store
        self.query = query
        self.fields = fields
        self.everyCommit = everyCommit
        self.initialResults = initialResults
    }

    /// Starts observing.
    ///
    /// ```swift
    /// var iterator = store.observe(query).makeAsyncIterator()
    /// let first = try await iterator.next()
    /// ```
    public func makeAsyncIterator() -> Iterator { Iterator(self) }

    /// Produces the elements of a ``QueryObservation``.
    ///
    /// ```swift
    /// let change = try await iterator.next()
    /// ```
    public final class Iterator: AsyncIteratorProtocol {
        private let observation: QueryObservation
        private var store: Store { observation.store }
        private var query: Query<R> { observation.query }
        private var everyCommit: Bool { observation.everyCommit }
        private let loop: ObservationLoop<R, EncodedKey>
        private var tree = RankedTree<EncodedKey, R>()
        private var window = RankedTree<EncodedKey, R>()
        /// The results (and window) this iterator last replaced, kept until the next call to
        /// ``next()``: when nothing else holds them, releasing them frees every node the new
        /// version copied (each with up to 64 records), work that belongs after the delivery.
        private var retired: (tree: RankedTree<EncodedKey, R>, window: RankedTree<EncodedKey, R>)?

        init(_ observation: QueryObservation) {
            self.observation = observation
            loop = ObservationLoop(store: observation.store)
        }

        /// The element for commits that changed nothing observed: the same results, an empty
        /// changeset, the new position (`everyCommit` only).
        private func unchanged(_ core: LiveQueryCore<R, EncodedKey>) -> QueryChange<R> {
            QueryChange(results: QueryResults(tree: window), changeset: Changeset(), isInitial: false, position: core.lastPosition)
        }

        /// The next element; `nil` when the consuming task is cancelled.
        ///
        /// ```swift
        /// while let change = try await iterator.next() { … }
        /// ```
        public func next() async throws -> QueryChange<R>? {
            guard !loop.finished else { return nil }
            retired = nil
            do {
                guard let core = loop.core else { return try start() }
                while true {
                    guard let delta = try await loop.nextDelta(oldValue: { self.tree.value(for: $0) }) else {
                        finish()
                        return nil
                    }
                    switch delta {
                    case .unchanged:
                        if everyCommit { return unchanged(core) }
                        continue
                    case .reset:
                        retired = (tree, window)
                        tree = try observation.initialResults(core)
                        window = windowOf(tree)
                        return QueryChange(results: QueryResults(tree: window), changeset: Changeset(), isInitial: true, position: core.lastPosition)
                    case .changes(let changes, let contentChanged):
                        let (newTree, changeset) = tree.applying(changes)
                        retired = (tree, window)
                        tree = newTree
                        let result: Changeset
                        if query.isWindowed {
                            let oldWindow = window
                            window = windowOf(tree)
                            result = windowChangeset(from: oldWindow, to: window, contentChanged: contentChanged)
                        } else {
                            window = tree
                            result = changeset
                        }
                        if result.isEmpty { if everyCommit { return unchanged(core) } else { continue } }
                        return QueryChange(results: QueryResults(tree: window), changeset: result, isInitial: false, position: core.lastPosition)
                    }
                }
            } catch {
                finish()
                throw error
            }
        }

        private func start() throws -> QueryChange<R>? {
            let core = try loop.start {
                try LiveQueryCore<R, EncodedKey>(store: store, query: query, fields: observation.fields) { _, sortKey in sortKey }
            }
            tree = try observation.initialResults(core)
            window = windowOf(tree)
            return QueryChange(results: QueryResults(tree: window), changeset: Changeset(), isInitial: true, position: core.lastPosition)
        }

        private func finish() {
            loop.finish()
            tree = RankedTree()
            window = RankedTree()
            retired = nil
        }

        private func windowOf(_ tree: RankedTree<EncodedKey, R>) -> RankedTree<EncodedKey, R> {
            guard query.isWindowed else { return tree }
            let start = Swift.min(query.offset, tree.count)
            let end = Swift.min(tree.count, query.limitCount.map { start + $0 } ?? tree.count)
            return RankedTree(sortedUniqueElements: tree.elements(in: start..<end))
        }

        /// The changeset between two windows (offset/limit) of the results: O(window size).
        private func windowChangeset(from old: RankedTree<EncodedKey, R>, to new: RankedTree<EncodedKey, R>,
                                     contentChanged: Set<[UInt8]>) -> Changeset {
            // Generic in its value, like LiveQueryCore's keys: see PrimaryKeyBytes for the key type.
            var byKey: [PrimaryKeyBytes: RowChange<EncodedKey, R>] = [:]
            for (key, value) in old {
                byKey[PrimaryKeyBytes(value.encodedPrimaryKey)] = RowChange(oldKey: key, newKey: nil, newValue: nil, contentChanged: false)
            }
            for (key, value) in new {
                let primaryKey = value.encodedPrimaryKey
                var change = byKey[PrimaryKeyBytes(primaryKey)] ?? RowChange(oldKey: nil, newKey: nil, newValue: nil, contentChanged: false)
                change.newKey = key
                change.newValue = value
                change.contentChanged = contentChanged.contains(primaryKey)
                byKey[PrimaryKeyBytes(primaryKey)] = change
            }
            let changes = byKey.values.filter { $0.oldKey != $0.newKey || $0.contentChanged }
            return old.applying(Array(changes)).changeset
        }
    }
}

extension Store {
    /// Observes `query`: an `AsyncSequence` of its results with exact changesets.
    ///
    /// `modificationsOf` narrows what counts as a modification to some fields (Realm's key-path
    /// filtering); by default any change of a record's stored bytes does.
    ///
    /// By default a commit that leaves the results unchanged yields nothing. With `everyCommit`,
    /// it yields an element with the same results, an empty changeset and the new
    /// ``QueryChange/position``, so that a caller can tell that the observer has caught up with a
    /// sequence (commits read together still yield one element).
    ///
    /// ```swift
    /// try await store.write { tx in try tx.add(note) }
    /// let written = try await store.read { try $0.lastChangeSequence() }
    /// for try await change in store.observe(query, everyCommit: true) where change.sequence >= written { break }
    /// ```
    ///
    /// ```swift
    /// for try await change in store.observe(Query<Tweet>().sorted(byIndex: "created")) {
    ///     print(change.changeset.insertions)
    /// }
    /// ```
    @inlinable
    public func observe<R: Record>(_ query: Query<R>, modificationsOf fields: [ObservedField<R>]? = nil,
                                   everyCommit: Bool = false) -> QueryObservation<R> {
        QueryObservation(store: self, query: query, fields: fields, everyCommit: everyCommit) { core in
            try core.initialRows { keys, values in RankedTree(ascendingKeys: &keys, values: &values) }
        }
    }
}
