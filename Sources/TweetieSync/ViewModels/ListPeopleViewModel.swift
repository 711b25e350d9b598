import Foundation

/// The list members screen's view model (the book's `ListPeopleViewModel`): fetches the list's
/// members once (``TwitterAPI/members(of:)``), stores them with ``TimelineIngest``, and shows the
/// stored members of the list, live.
///
/// ``people`` delivers `nil` while loading, then the members read from the store (users whose
/// `lists` contain the list's key, by username); after a failed load it shows what is stored.
///
/// ```swift
/// let viewModel = ListPeopleViewModel(list: list, api: api, store: store)
/// for try await people in viewModel.people {
///     if let people { table.show(people) } else { label.text = "Loading..." }
/// }
/// ```
public final class ListPeopleViewModel: Sendable {
    /// The list whose members are shown.
    ///
    /// ```swift
    /// title = viewModel.list.slug
    /// ```
    public let list: ListIdentifier
    /// The source of the members.
    ///
    /// ```swift
    /// let api = viewModel.api
    /// ```
    public let api: any TwitterAPI
    /// Where members are stored and read from.
    ///
    /// ```swift
    /// let store = viewModel.store
    /// ```
    public let store: Store

    private let state = StateBroadcast<PeopleLoadState>(.loading)
    private let loading: Task<Void, Never>

    /// Creates the view model and starts loading the members at once.
    ///
    /// ```swift
    /// let viewModel = ListPeopleViewModel(list: list, api: SimulatedTwitterSource(seed: 1), store: store)
    /// ```
    public init(list: ListIdentifier, api: any TwitterAPI, store: Store) {
        self.list = list
        self.api = api
        self.store = store
        let state = self.state
        loading = Task {
            do {
                let page = try await api.members(of: list)
                let report = try await TimelineIngest.ingest(page, of: list, into: store)
                state.send(.loaded(report))
            } catch {
                state.send(.failed(TimelineFetcher.describe(error)))
            }
        }
    }

    deinit {
        loading.cancel()
        state.finish()
    }

    /// The load state; a new subscriber first gets the current one.
    ///
    /// ```swift
    /// for await state in viewModel.loadState { print(state) }
    /// ```
    public var loadState: AsyncStream<PeopleLoadState> { state.updates() }

    /// Whether the members are being loaded (for a "Loading..." label); a new subscriber first
    /// gets the current value.
    ///
    /// ```swift
    /// for await loading in viewModel.isLoading { label.isHidden = !loading }
    /// ```
    public var isLoading: AsyncStream<Bool> {
        let states = state.updates()
        return AsyncStream { continuation in
            let task = Task {
                var last: Bool?
                for await state in states where state.isLoading != last {
                    last = state.isLoading
                    continuation.yield(state.isLoading)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Waits until loading has ended and returns the final state.
    ///
    /// ```swift
    /// if case .failed(let message) = await viewModel.loaded() { print(message) }
    /// ```
    public func loaded() async -> PeopleLoadState {
        for await current in state.updates() where !current.isLoading { return current }
        return state.current ?? .loading
    }

    /// The query behind ``people``: stored users whose `lists` contain the list's key, by username.
    ///
    /// ```swift
    /// let members = try store.read { try $0.fetch(viewModel.query) }
    /// ```
    public var query: Query<User> { ListPeopleViewModel.members(of: list) }

    /// The stored members as table-ready rows in one section `all`, by username, with the
    /// sectioned changeset from the previous delivery; unlike ``people`` it does not wait for the
    /// load (an empty store delivers no section).
    ///
    /// ```swift
    /// for try await update in viewModel.sections { table.apply(update.changeset, sections: update.sections) }
    /// ```
    public var sections: SectionedUpdates<PersonRow> { Self.members(of: list, in: store) }

    /// The members' sections without a view model (no load): ``sections`` of `list` in `store`,
    /// the first `limit` members only when given; ``ChangeFeed/people(_:store:limit:)`` serializes it.
    ///
    /// ```swift
    /// let updates = ListPeopleViewModel.members(of: list, in: store)
    /// ```
    public static func members(of list: ListIdentifier, in store: Store, limit: Int? = nil) -> SectionedUpdates<PersonRow> {
        SectionedUpdates(store: store, observation: store.observe(members(of: list).limit(limit), sectionedBy: { _ in "all" }, modificationsOf: PersonRow.sourceFields,
                                                                   sectionsFollowQueryOrder: true),
                         now: Date.init, section: { _, _ in ("all", "All") }, row: { user, _ in PersonRow(user) })
    }

    /// Stored users whose `lists` contain `list`'s key, by username.
    ///
    /// ```swift
    /// let members = try store.read { try $0.fetch(ListPeopleViewModel.members(of: list)) }
    /// ```
    public static func members(of list: ListIdentifier) -> Query<User> {
        let key = list.key
        return Query<User>().sorted(byIndex: "username").filter { $0.lists.contains(key) }
    }

    /// `nil` while loading, then the list's members from the store after every change of them.
    /// Throws if the store cannot be read.
    ///
    /// ```swift
    /// for try await people in viewModel.people { render(people) }
    /// ```
    public var people: AsyncThrowingStream<[User]?, any Error> {
        let states = state.updates()
        let observation = store.observe(query)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for await state in states {
                        if !state.isLoading { break }
                        continuation.yield(nil)
                    }
                    try Task.checkCancellation()
                    for try await change in observation {
                        continuation.yield(Array(change.results))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
