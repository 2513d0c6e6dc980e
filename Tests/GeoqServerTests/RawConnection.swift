import Foundation

/// A client TCP connection on plain POSIX sockets, for tests that need what an HTTP client
/// never does: send part of a request head, or nothing at all, and see when the server closes.
/// Reads never block (the caller polls), so that hundreds can be watched from one task.
final class RawConnection: @unchecked Sendable {
    private(set) var descriptor: Int32
    /// Everything read so far.
    private(set) var received: [UInt8] = []
    /// The server closed its end (a read gave end of file or a reset).
    var closedByServer: Bool { closedAt != nil }
    /// When the connection was made.
    let openedAt: ContinuousClock.Instant
    /// When a poll first found the connection closed by the server.
    private(set) var closedAt: ContinuousClock.Instant?

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = POSIXError(.init(rawValue: errno) ?? .EIO)
            Glibc.close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        openedAt = .now
    }

    deinit { close() }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { return }
            sent += n
        }
    }

    /// Reads what has arrived, without waiting; notes the server's close.
    func poll() {
        guard descriptor >= 0, !closedByServer else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                received += buffer[..<n]
            } else if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                closedAt = .now
                return
            } else {
                return
            }
        }
    }

    /// Polls until the server has closed or `seconds` have passed.
    func waitForClose(within seconds: Double) async throws {
        try await Self.waitForClose(of: [self], within: seconds)
    }

    /// Polls `connections` until the server has closed each of them, or `seconds` have passed.
    static func waitForClose(of connections: [RawConnection], within seconds: Double) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            connections.forEach { $0.poll() }
            if connections.allSatisfy(\.closedByServer) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Polls until `count` bytes or more have arrived (or the server closed), for `seconds` at most.
    func waitForBytes(_ count: Int, within seconds: Double) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            poll()
            if received.count >= count || closedByServer { return }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// What was received, as text.
    var text: String { String(decoding: received, as: UTF8.self) }

    func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }
}

/// This process's descriptors of TCP connections with a local port (the listening socket
/// excluded), found by matching /proc/self/fd's socket inodes with /proc/net/tcp: the service's
/// accepted connections (`.server`), or those and the clients' ends too (`.eitherEnd`).
enum ServerSockets {
    enum Ends { case server, eitherEnd }

    static func count(port: Int, _ ends: Ends = .server) -> Int {
        let portSuffix = ":" + String(format: "%04X", port)
        let inodes = Set(
            procText("/proc/net/tcp").split(separator: "\n").dropFirst()
                .compactMap { line -> Substring? in
                    let fields = line.split(separator: " ")
                    // local address, remote address, state (0A: listening), inode
                    guard fields.count > 9, fields[3] != "0A" else { return nil }
                    let local = fields[1].hasSuffix(portSuffix)
                    let remote = ends == .eitherEnd && fields[2].hasSuffix(portSuffix)
                    return local || remote ? fields[9] : nil
                })
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { name in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
                target.hasPrefix("socket:[")
            else { return false }
            return inodes.contains(Substring(target.dropFirst(8).dropLast()))
        }.count
    }

    /// A /proc file read to its end (its stat size is 0, so it is read until a read gives nothing).
    static func procText(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
