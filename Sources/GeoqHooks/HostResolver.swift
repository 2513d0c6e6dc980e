import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Turns a receiver's host into the addresses to check and connect to. The system's resolver by
/// default; tests give names of their own (a name that resolves to a denied address, or to a
/// different one at each lookup, as DNS rebinding would).
public struct HostResolver: Sendable {
    public let resolve: @Sendable (String) async throws -> [IPAddress]

    public init(_ resolve: @escaping @Sendable (String) async throws -> [IPAddress]) {
        self.resolve = resolve
    }

    /// The system's resolver (getaddrinfo: /etc/hosts, then DNS; numeric forms such as
    /// `0x7f000001` or `127.1` read as the addresses they stand for). It blocks, so each lookup
    /// runs on a thread of its own, off the cooperative pool.
    public static let system = HostResolver { host in
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try lookUp(host) }) }
            thread.start()
        }
    }

    /// Why a host could not be resolved.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    static func lookUp(_ host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            throw Failure(description: "\(host) cannot be resolved: \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry = list
        while let current = entry?.pointee {
            if let address = current.ai_addr {
                switch Int32(current.ai_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        var raw = $0.pointee.sin_addr
                        addresses.append(IPAddress(bytes: withUnsafeBytes(of: &raw) { Array($0) })!)
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        var raw = $0.pointee.sin6_addr
                        addresses.append(IPAddress(bytes: withUnsafeBytes(of: &raw) { Array($0) })!)
                    }
                default: break
                }
            }
            entry = current.ai_next
        }
        var seen = Set<IPAddress>()
        return addresses.filter { seen.insert($0).inserted }
    }
}
