import Foundation
import GeoqTiles

/// gzip compression by the system's `gzip` program, standing in for zlib, which the tiles module
/// does not link.
enum GzipTool {
    static let path = "/usr/bin/gzip"

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// `gzip -dc` of `bytes`; nil when they are not gzip data.
    static func decompress(_ bytes: [UInt8]) -> [UInt8]? { run(["-dc"], on: bytes) }

    /// `gzip -c -n` of `bytes`: no name and no time stamp, so equal input gives equal output.
    /// Nil when the program fails.
    @Sendable static func compress(_ bytes: [UInt8]) -> [UInt8]? { run(["-c", "-n"], on: bytes) }

    private static func run(_ arguments: [String], on bytes: [UInt8]) -> [UInt8]? {
        // Input from a file rather than a pipe: a pipe would need a second thread to feed gzip
        // while its output is read, or both sides block once the pipe buffers fill.
        let input = FileManager.default.temporaryDirectory
            .appendingPathComponent("geoq-tiles-gzip-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: input) }
        do {
            try Data(bytes).write(to: input)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.standardInput = try FileHandle(forReadingFrom: input)
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let compressed = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return process.terminationStatus == 0 ? [UInt8](compressed) : nil
        } catch {
            return nil
        }
    }

    /// The writer's internal compression through this program.
    static let internalCompression = PMTilesInternalCompression(code: .gzip, compress: compress)
}
