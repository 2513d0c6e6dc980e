import CFuzzerDriver
import Foundation
import GeometrySeeds
import GeoqCore
import GeoqStore

/// WKB as PostGIS hands it back (`ST_AsBinary`): a geometry or a StoreError. A geometry read
/// must also survive the way back: written and read again, it writes the same bytes. The seeds
/// (`GEOQ_FUZZ_SEEDS=folder`) are each kind of geometry as geoq writes it and as others do.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    guard let geometry = try? WKB.decode(bytes) else { return 0 }
    let written = WKB.encode(geometry)
    guard let again = try? WKB.decode(written) else { fatalError("WKB written from a geometry does not read back") }
    precondition(WKB.encode(again) == written, "WKB read back writes other bytes")
    return 0
}

if let folder = ProcessInfo.processInfo.environment["GEOQ_FUZZ_SEEDS"] {
    for (number, bytes) in (GeometrySeeds.samples.map(WKB.encode) + GeometrySeeds.foreignWKB).enumerated() {
        _ = FileManager.default.createFile(atPath: "\(folder)/wkb\(number)", contents: Data(bytes))
    }
    exit(0)
}
exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
