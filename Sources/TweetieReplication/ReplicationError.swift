/// Why replication stopped or refused to start: each case's description is one sentence that
/// says what, where and why.
public struct ReplicationError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Code: String, Sendable {
        /// The PostgreSQL URL cannot be read.
        case badURL
        /// The server could not be reached, or refused the connection or the password.
        case connection
        /// The database has no replication schema (`tweetie-replicate init` installs it).
        case schemaMissing
        /// The database's replication schema is newer than this version knows.
        case schemaTooNew
        /// A record on the server does not decode as the local record type, or its key disagrees.
        case undecodableRecord
        /// A record on the server has a newer schema version than the local record type.
        case newerRecordSchema
        /// The store is not set up for replication (a collection missing from the store).
        case storeNotReplicable
        /// The server answered with an error.
        case server
        /// A value given to the library is out of its range (a negative retention).
        case invalidArgument
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
