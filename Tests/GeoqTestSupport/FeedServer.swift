import Foundation

/// tools/test-feed-server.py on 127.0.0.1 (a free port), serving the feed fixtures and the
/// broken answers the download tests need. Stopped when released.
public final class FeedServer: @unchecked Sendable {
    public let port: Int
    private let process: Process
    /// Closing it stops the server (it reads its stdin until end of file).
    private let input: Pipe

    /// - Parameter directory: served under `/files/`.
    public init(directory: URL) throws {
        let process = Process()
        // The system Python itself, not a shim (pyenv's would survive terminate()).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            TestData.packageRoot.appendingPathComponent("tools/test-feed-server.py").path, directory.path,
        ]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        // Never the runner's own stderr: a server outliving a test must not hold its pipe open.
        process.standardError = FileHandle.nullDevice
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
        self.input = input
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    deinit {
        // No waitUntilExit: inside the test runner it can block forever. Closing stdin stops the
        // server; SIGTERM too.
        try? input.fileHandleForWriting.close()
        process.terminate()
    }
}
