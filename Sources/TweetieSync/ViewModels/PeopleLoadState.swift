/// Where loading a list's members stands.
///
/// ```swift
/// for await state in viewModel.loadState {
///     if case .failed(let message) = state { showError(message) }
/// }
/// ```
public enum PeopleLoadState: Sendable, Hashable {
    /// The members request is in flight.
    ///
    /// ```swift
    /// label.isHidden = state != .loading
    /// ```
    case loading
    /// The members were fetched and stored.
    ///
    /// ```swift
    /// if state == .loaded { … }
    /// ```
    case loaded(IngestReport)
    /// The request or the ingest failed; the stored members (possibly none) are shown.
    ///
    /// ```swift
    /// if case .failed(let message) = state { print(message) }
    /// ```
    case failed(String)

    /// Whether the request is in flight.
    ///
    /// ```swift
    /// print(PeopleLoadState.loading.isLoading) // true
    /// ```
    public var isLoading: Bool { self == .loading }
}
