import GeoqCore

/// The seed geometries of the WKB and GeoPackage blob targets: both wrap WKB, so both start
/// from the same geometries as geoq writes them and the same WKB as other writers send it.
public enum GeometrySeeds {
    /// One geometry of each kind the store keeps, a polygon with a hole among them.
    public static let samples: [Geometry] = {
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
    public static let foreignWKB: [[UInt8]] = {
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
}
