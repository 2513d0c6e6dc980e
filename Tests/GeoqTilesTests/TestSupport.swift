import GeoqCore

@testable import GeoqTiles

/// The bytes of a hexadecimal string (two digits a byte).
func bytes(hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map { i in
        UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16)!
    }
}

func grid(_ pairs: [(Int32, Int32)]) -> [GridPoint] {
    pairs.map { GridPoint(x: $0.0, y: $0.1) }
}

/// Twice the shoelace area of an open ring of grid points, written out anew for the tests.
func doubleArea(_ ring: ArraySlice<GridPoint>) -> Int64 {
    let ps = Array(ring)
    var sum: Int64 = 0
    for i in ps.indices {
        let a = ps[i], b = ps[(i + 1) % ps.count]
        sum += Int64(a.x) * Int64(b.y) - Int64(b.x) * Int64(a.y)
    }
    return sum
}

/// The rings of a polygon geometry, each as its own array.
func rings(_ geometry: TileGeometry) -> [[GridPoint]] {
    (0..<geometry.partCount).map { Array(geometry.points[geometry.range(ofPart: $0)]) }
}

/// A closed ring (first point repeated) from (longitude, latitude) pairs.
func ring(_ pairs: [(Double, Double)]) -> Ring {
    try! Ring(closing: pairs.map { Point(x: $0.0, y: $0.1) })
}

/// The feature built, nil when it was dropped.
func built(_ outcome: TileFeatureBuilder.Outcome) -> TileFeature? {
    if case .feature(let f) = outcome { return f }
    return nil
}
