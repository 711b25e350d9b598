import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The unprivileged `tweetie-test` user, for tests about permissions (the tests run as root).
public struct TestUser: Sendable {
    public let uid: uid_t
    public let gid: gid_t

    /// The user, created with `useradd -M -r` when missing; `nil`, with a one-line message,
    /// when the tests do not run as root or the user cannot be created.
    public static func prepare() throws -> TestUser? {
        guard geteuid() == 0 else {
            print("skipped: dropping privileges needs root")
            return nil
        }
        if getpwnam("tweetie-test") == nil { ChildProcess.status("/usr/sbin/useradd", ["-M", "-r", "tweetie-test"]) }
        guard let entry = getpwnam("tweetie-test") else {
            print("skipped: cannot create the user tweetie-test")
            return nil
        }
        return TestUser(uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }

    /// The command prefix that runs a program as this user, with no supplementary groups.
    public var setpriv: [String] {
        ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"]
    }
}
