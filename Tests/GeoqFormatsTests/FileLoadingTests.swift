import Foundation
import Testing

@testable import GeoqFormats

/// Whole files read into memory: a large one in two halves on two threads, byte for byte the
/// file; errors that name the file.
@Suite("File loading")
struct FileLoadingTests {
    /// Files just under, at and over the size from which they are read in halves (odd sizes, so
    /// that the halves differ), every byte different from its neighbours.
    @Test(arguments: [FileLoading.splitThreshold - 1, FileLoading.splitThreshold, FileLoading.splitThreshold * 3 + 7])
    func filesReadBackByteForByte(size: Int) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-loading-\(size)-\(getpid()).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        var bytes = [UInt8](repeating: 0, count: size)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for k in bytes.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[k] = UInt8(truncatingIfNeeded: state >> 56)
        }
        try Data(bytes).write(to: url)
        let read = try FileLoading.data(at: url)
        #expect(read.count == size)
        #expect(read.elementsEqual(bytes))
    }

    @Test func aMissingFileOrADirectoryIsNamed() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/big.geojson")
        #expect {
            try FileLoading.data(at: missing)
        } throws: { error in
            guard let error = error as? FormatError else { return false }
            return error.code == .fileNotFound && error.file == missing.path
        }
        let directory = FileManager.default.temporaryDirectory
        #expect {
            try FileLoading.data(at: directory)
        } throws: { error in
            guard let error = error as? FormatError else { return false }
            return error.code == .unreadableFile && error.message.contains("directory")
        }
    }
}
