import CFuzzerDriver
import Foundation
import GeoqAPI

/// A body posted to the batch which-sector endpoint: its first byte picks the Content-Type
/// (each media type has its own reader), the rest is the body. The seeds
/// (`GEOQ_FUZZ_SEEDS=folder`) are the endpoint's documented example bodies.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let types = SectorBatchEndpoint.lineMediaTypes + SectorBatchEndpoint.collectionMediaTypes
    let first = start.load(as: UInt8.self)
    let contentType = types[Int(first) % types.count] + (first >= 128 ? "; charset=utf-8" : "")
    _ = try? SectorBatchEndpoint.items(
        Data(bytes: start + 1, count: count - 1), contentType: contentType, maxPoints: 50)
    return 0
}

if let folder = ProcessInfo.processInfo.environment["GEOQ_FUZZ_SEEDS"] {
    let types = SectorBatchEndpoint.lineMediaTypes + SectorBatchEndpoint.collectionMediaTypes
    for (number, example) in (EndpointDescription.sectorBatch.requestBody?.examples ?? []).enumerated() {
        guard let type = types.firstIndex(of: example.mediaType) else { continue }
        _ = FileManager.default.createFile(
            atPath: "\(folder)/body\(number)", contents: Data([UInt8(type)] + Array(example.example.utf8)))
    }
    exit(0)
}
exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
