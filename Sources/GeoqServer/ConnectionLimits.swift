import Foundation

/// How long a connection may wait for a request, and how many may be open at once: what keeps
/// silent, slow and idle clients from holding the service's descriptors.
///
/// The defaults are nginx's: `client_header_timeout` 60 s, `keepalive_timeout` 75 s.
public struct ConnectionLimits: Sendable, Hashable {
    /// How long a request head may take to arrive, counted from the connection's opening (its
    /// first request) or from the first byte of a later one. A connection that sent part of a
    /// head is answered 408 and closed; one that sent nothing is closed without an answer.
    public var headerTimeout: Duration
    /// How long a keep-alive connection may stay open between requests, sending nothing.
    public var idleTimeout: Duration
    /// The most connections open at once. At the cap a newcomer makes room: the connections
    /// not in the middle of a request (silent, partway through a head, idle between requests)
    /// are closed, those unused the longest first; a newcomer is refused only when every open
    /// connection has a request in progress.
    public var maxConnections: Int

    public init(
        headerTimeout: Duration = .seconds(60), idleTimeout: Duration = .seconds(75),
        maxConnections: Int = ConnectionLimits.defaultMaxConnections
    ) {
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
    }

    /// 10,000, or three quarters of the process's descriptor limit (RLIMIT_NOFILE) when that is
    /// lower, so that the store, the data files and the listening socket always find one.
    public static let defaultMaxConnections: Int = {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return 10_000
        }
        return max(1, min(10_000, Int(clamping: limit.rlim_cur) / 4 * 3))
    }()
}
