import Foundation

/// Command-line tools the tests use as independent clients (GDAL's ogrinfo and ogr2ogr, the
/// sqlite3 shell, Python, curl, the built geoq): found in the usual places, run to the end,
/// their output kept.
public enum ExternalTool {
    /// The path of `name` in /usr/bin, /usr/local/bin or /bin; nil when it is not installed.
    public static func path(_ name: String) -> String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"]
        where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        return nil
    }

    /// Runs `tool` with `arguments` and returns its exit status and its standard output and
    /// error together.
    public static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let finished = try run(URL(fileURLWithPath: tool), arguments, standardError: .merged)
        return (finished.status, finished.stdout)
    }

    /// Where a program's standard error goes.
    public enum StandardError: Sendable {
        /// Kept apart, in ``ProgramRun/stderr``.
        case kept
        /// Into standard output, in the order written.
        case merged
        /// Dropped.
        case dropped
    }

    /// Runs `executable` with `arguments` to its end and keeps what it wrote.
    ///
    /// - Parameters:
    ///   - input: written to its standard input, which is then closed; nil leaves it the tests'
    ///     own standard input.
    ///   - environment: its whole environment; nil passes on the tests' own.
    ///   - directory: its working directory; nil keeps the tests' own.
    public static func run(
        _ executable: URL, _ arguments: [String], input: String? = nil, environment: [String: String]? = nil,
        directory: URL? = nil, standardError: StandardError = .kept
    ) throws -> ProgramRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let inputPipe = input.map { _ in Pipe() }
        if let inputPipe { process.standardInput = inputPipe }
        let output = Pipe()
        process.standardOutput = output
        let errorPipe: Pipe?
        switch standardError {
        case .kept:
            errorPipe = Pipe()
            process.standardError = errorPipe
        case .merged:
            errorPipe = nil
            process.standardError = output
        case .dropped:
            errorPipe = nil
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        if let inputPipe, let input {
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
        // Read before waiting: a pipe holds little, and a program blocked on a full one never ends.
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errorPipe?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return ProgramRun(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }
}

/// How a program run by ``ExternalTool/run(_:_:input:environment:directory:standardError:)``
/// ended: its exit status and what it wrote.
public struct ProgramRun: Sendable {
    public var status: Int32
    public var stdout: String
    /// Empty unless standard error was kept apart.
    public var stderr: String
}
