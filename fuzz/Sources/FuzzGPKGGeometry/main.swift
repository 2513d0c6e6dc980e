import CFuzzerDriver
import Foundation
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

/// One geometry of each kind the store keeps, a polygon with a hole among them.
let samples: [Geometry] = {
    func ring(_ xy: [(Double, Double)]) -> Ring { try! Ring(closing: xy.map { Point(x: $0.0, y: $0.1) }) }
    let square = ring([(0, 0), (0, 4), (4, 4), (4, 0)])
    let hole = ring([(1, 1), (2, 1), (2, 2), (1, 2)])
    let line = [Point(x: -1.64, y: 42.81), Point(x: -1.63, y: 42.82), Point(x: -1.62, y: 42.8)]
    return [
        .point(Point(x: -1.64, y: 42.81)), .lineString(line), .polygon(Polygon(shell: square, holes: [hole])),
        .multiPoint(line), .multiLineString([line, Array(line.reversed())]),
        .multiPolygon(MultiPolygon([Polygon(shell: square), Polygon(shell: hole)])),
    ]
}()

/// WKB that geoq does not write but reads: big-endian, and with Z, M and ZM ordinates.
let foreignWKB: [[UInt8]] = {
    func wkb(bigEndian: Bool, type: UInt32, _ body: [Double], counts: [UInt32] = []) -> [UInt8] {
        var bytes: [UInt8] = [bigEndian ? 0 : 1]
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { bytes += $0 }
        }
        append(type)
        for count in counts { append(count) }
        for value in body { append(value.bitPattern) }
        return bytes
    }
    return [
        wkb(bigEndian: true, type: 1, [-1.64, 42.81]),
        wkb(bigEndian: false, type: 1001, [-1.64, 42.81, 450]),
        wkb(bigEndian: true, type: 2002, [0, 0, 7, 1, 1, 8], counts: [2]),
        wkb(bigEndian: false, type: 3003, [0, 0, 1, 2, 0, 1, 1, 2, 1, 1, 1, 2, 0, 0, 1, 2], counts: [1, 4]),
    ]
}()

if let folder = ProcessInfo.processInfo.environment["GEOQ_FUZZ_SEEDS"] {
    var blobs = samples.map { GPKGGeometry.encode($0) }
    // The header with an envelope of 0, 4, 6, 6 and 8 doubles (indicator 0...4), then the WKB.
    for (indicator, wkb) in zip(0...4, foreignWKB + [foreignWKB[0]]) {
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
