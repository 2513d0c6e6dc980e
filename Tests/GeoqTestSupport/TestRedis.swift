import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private Redis server for one test: Debian's `redis-server` (installed by
/// `tools/ensure-dependencies.sh --tests`) on a free loopback port, in its own folder, with no
/// persistence, stopped by ``stop()``. Read back with Debian's `redis-cli`, a client geoq's code
/// has no part in. Without the binary the tests that need it report themselves skipped; under CI
/// its absence fails them.
public final class TestRedis: @unchecked Sendable {
    public static let server = URL(fileURLWithPath: "/usr/bin/redis-server")
    public static let client = URL(fileURLWithPath: "/usr/bin/redis-cli")
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: server.path) }
    public static let missing = "no redis-server: tools/ensure-dependencies.sh --tests installs it"

    public let port: Int
    private let process: Process
    private let folder: URL

    /// Starts a server on `port` (a free one when nil) and waits until it answers PING.
    public init(port: Int? = nil) throws {
        self.port = try port ?? FreePort.next()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-redis-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = Self.server
        process.arguments = [
            "--port", "\(self.port)", "--bind", "127.0.0.1", "--dir", folder.path, "--save", "", "--appendonly", "no",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<200 {
            if (try? cli(["PING"])) == ["PONG"] { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "redis-server did not answer PING"])
    }

    /// Stops the server for good and removes its folder.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// What `redis-cli` prints for `arguments` (raw, since it is not a terminal), line by line.
    public func cli(_ arguments: [String]) throws -> [String] {
        let run = try ExternalTool.run(Self.client.path, ["-h", "127.0.0.1", "-p", "\(port)"] + arguments)
        return run.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Every entry of `stream`, oldest first: its fields by name (`redis-cli --json XRANGE`).
    public func entries(_ stream: String) throws -> [[String: String]] {
        let text = try cli(["--json", "XRANGE", stream, "-", "+"]).joined(separator: "\n")
        guard let rows = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[Any]] else { return [] }
        return rows.map { row in
            let flat = (row.last as? [String]) ?? []
            var fields: [String: String] = [:]
            for pair in stride(from: 0, to: flat.count - 1, by: 2) { fields[flat[pair]] = flat[pair + 1] }
            return fields
        }
    }
}
