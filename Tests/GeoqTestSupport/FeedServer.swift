import Foundation

/// tools/test-feed-server.py on 127.0.0.1 (a free port), serving the feed fixtures and the
/// broken answers the download tests need. Stopped when released.
public final class FeedServer: @unchecked Sendable {
    public let port: Int
    private let process: Process

    /// - Parameter directory: served under `/files/`.
    public init(directory: URL) throws {
        let process = Process()
        // The system Python itself, not a shim (pyenv's would survive terminate()).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            TestData.packageRoot.appendingPathComponent("tools/test-feed-server.py").path, directory.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The first line is the port.
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw CocoaError(.executableLoad)
        }
        self.port = port
        self.process = process
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    deinit {
        // No waitUntilExit: inside the test runner it can block forever; the server dies on SIGTERM.
        process.terminate()
    }
}
