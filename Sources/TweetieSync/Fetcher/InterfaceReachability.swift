#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The default reachability on Linux: reachable when at least one non-loopback network
/// interface is up and running with an IPv4 or IPv6 address (read with `getifaddrs`).
///
/// This is a cheap, local check, the same kind of answer the book's `Reachability` gave. It does
/// **not** prove that the Twitter API host can be reached: there may be no route, no DNS, a
/// captive portal or a firewall. A fetch that fails for such a reason becomes a
/// ``FetcherEvent/failed(_:retryIn:)`` event and is retried with backoff.
///
/// ```swift
/// let reachability = InterfaceReachability()
/// print(await reachability.isReachable(), reachability.upInterfaces())
/// ```
public struct InterfaceReachability: Reachability, CustomStringConvertible {
    /// Creates the check.
    ///
    /// ```swift
    /// let reachability = InterfaceReachability()
    /// ```
    public init() {}

    /// Whether a non-loopback interface is up and running with an IPv4 or IPv6 address.
    ///
    /// ```swift
    /// if await InterfaceReachability().isReachable() { … }
    /// ```
    public func isReachable() async -> Bool {
        !upInterfaces().isEmpty
    }

    /// The names of the non-loopback interfaces that are up and running with an IPv4 or IPv6
    /// address, sorted and without duplicates; empty when `getifaddrs` fails.
    ///
    /// ```swift
    /// print(InterfaceReachability().upInterfaces()) // ["eth0"]
    /// ```
    public func upInterfaces() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let first else { return [] }
        defer { freeifaddrs(first) }
        let required = UInt32(IFF_UP) | UInt32(IFF_RUNNING)
        var names: Set<String> = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = UInt32(entry.pointee.ifa_flags)
            guard flags & required == required, flags & UInt32(IFF_LOOPBACK) == 0 else { continue }
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            names.insert(String(cString: entry.pointee.ifa_name))
        }
        return names.sorted()
    }

    /// Says what is checked, and what is not.
    public var description: String {
        "a non-loopback network interface is up (does not prove the API host is reachable)"
    }
}
