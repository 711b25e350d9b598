/// The response of a list-members request.
///
/// ```swift
/// let members = try await api.members(of: list)
/// print(members.users.map(\.username))
/// ```
public struct MembersPage: Sendable, Hashable {
    /// The list's members, in the order the source returned them.
    ///
    /// ```swift
    /// let names = members.users.map(\.name)
    /// ```
    public var users: [User]
    /// Elements of the response that could not be decoded and were left out.
    ///
    /// ```swift
    /// let complete = members.dropped.isEmpty
    /// ```
    public var dropped: [DroppedElement]

    /// Creates a members page.
    ///
    /// ```swift
    /// let page = MembersPage(users: [], dropped: [])
    /// ```
    public init(users: [User], dropped: [DroppedElement] = []) {
        self.users = users
        self.dropped = dropped
    }
}
