import Foundation

/// The `{"users": [...]}` envelope of `lists/members.json`.
struct UsersEnvelopeDTO: Decodable {
    let users: [DecodingAttempt<UserDTO>]
}
