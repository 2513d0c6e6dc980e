import CFuzzerDriver
import Foundation
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
    for (number, bytes) in (samples.map(WKB.encode) + foreignWKB).enumerated() {
        _ = FileManager.default.createFile(atPath: "\(folder)/wkb\(number)", contents: Data(bytes))
    }
    exit(0)
}
exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
