import CFuzzerDriver
import Foundation
import GeometrySeeds
import GeoqCore
import GeoqStore

/// A GeoPackage geometry blob as the store reads a layer's rows (edited by any GeoPackage
/// client): decoded on its own, and into a small shared ring buffer as a layer's rows are, so
/// that both the buffer's path and its overflow into arrays are taken. Both must agree, and a
/// blob read must write a blob that reads back the same. The seeds (`GEOQ_FUZZ_SEEDS=folder`)
/// are each kind of geometry as geoq writes it, and as others do (envelopes of each size,
/// big-endian, Z and M ordinates).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: start, count: count)
    let alone = Result { () throws(StoreError) in try GPKGGeometry.decode([UInt8](buffer)) }
    let shared = Result { () throws(StoreError) in try GPKGGeometry.decode(buffer, rings: PointArena(capacity: 16)) }
    switch (alone, shared) {
    case (.success(let geometry), .success(let other)):
        let written = GPKGGeometry.encode(geometry)
        precondition(GPKGGeometry.encode(other) == written, "a blob decodes differently into a shared ring buffer")
        guard let again = try? GPKGGeometry.decode(written) else {
            fatalError("a blob written from a geometry does not read back")
        }
        precondition(GPKGGeometry.encode(again) == written, "a blob read back writes other bytes")
    case (.failure, .failure): break
    default: fatalError("a blob decodes on its own but not into a shared ring buffer, or the other way round")
    }
    return 0
}

if let folder = ProcessInfo.processInfo.environment["GEOQ_FUZZ_SEEDS"] {
    var blobs = GeometrySeeds.samples.map { GPKGGeometry.encode($0) }
    // The header with an envelope of 0, 4, 6, 6 and 8 doubles (indicator 0...4), then the WKB.
    for (indicator, wkb) in zip(0...4, GeometrySeeds.foreignWKB + [GeometrySeeds.foreignWKB[0]]) {
        let doubles = [0, 4, 6, 6, 8][indicator]
        let header: [UInt8] = [0x47, 0x50, 0, UInt8(indicator << 1 | 1), 0xE6, 0x10, 0, 0]
        blobs.append(header + [UInt8](repeating: 0, count: doubles * 8) + wkb)
    }
    for (number, bytes) in blobs.enumerated() {
        _ = FileManager.default.createFile(atPath: "\(folder)/gpkg\(number)", contents: Data(bytes))
    }
    exit(0)
}
exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
