#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IP address as its bytes: 4 for IPv4, 16 for IPv6.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The address written as text, strictly (dotted quad, or IPv6 with `::`), through inet_pton:
    /// the lenient forms (`0x7f000001`, `127.1`) are names to resolve, not addresses to trust.
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        bytes = withUnsafeBytes(of: &v6) { Array($0) }
    }

    public var isIPv4: Bool { bytes.count == 4 }

    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        return bytes.withUnsafeBytes { raw in
            inet_ntop(isIPv4 ? AF_INET : AF_INET6, raw.baseAddress, &text, socklen_t(text.count))
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}

/// A block of addresses in CIDR notation (`10.0.0.0/8`, `fc00::/7`).
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    public let base: IPAddress
    public let prefixLength: Int

    /// Parses `address/length` (a lone address is its own /32 or /128). The bits after the prefix
    /// must be zero, so that a range is written one way only.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let base = IPAddress(String(parts[0])) else { return nil }
        let most = base.bytes.count * 8
        let length = parts.count == 2 ? Int(parts[1]) : most
        guard let length, (0...most).contains(length) else { return nil }
        self.base = base
        prefixLength = length
        guard contains(base), base.bytes == Self.masked(base.bytes, length) else { return nil }
    }

    public func contains(_ address: IPAddress) -> Bool {
        address.bytes.count == base.bytes.count && Self.masked(address.bytes, prefixLength) == base.bytes
    }

    public var description: String { "\(base)/\(prefixLength)" }

    private static func masked(_ bytes: [UInt8], _ length: Int) -> [UInt8] {
        bytes.indices.map { index in
            let bits = min(8, max(0, length - index * 8))
            return bits == 8 ? bytes[index] : bytes[index] & ~(0xFF >> bits)
        }
    }
}
