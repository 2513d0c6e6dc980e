import Foundation

/// Command-line tools the tests use as independent clients (GDAL's ogrinfo and ogr2ogr, the
/// sqlite3 shell, Python): found in the usual places, run to the end, their output kept.
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
