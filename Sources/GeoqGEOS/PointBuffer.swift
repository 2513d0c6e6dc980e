import GeoqCore

/// Bulk copies between `[Point]` and GEOS's interleaved `x y x y ...` coordinate buffers.
///
/// When `Point` is laid out as two adjacent `Double`s (x at offset 0, y at offset 8, stride 16:
/// true today, checked at run time) the array's own storage is handed to GEOS with no copy;
/// otherwise a temporary `[Double]` is used, so a change to `Point` can cost speed but never
/// correctness.
enum PointBuffer {
    static let isInterleavedXY: Bool =
        MemoryLayout<Point>.offset(of: \Point.x) == 0
        && MemoryLayout<Point>.offset(of: \Point.y) == MemoryLayout<Double>.stride
        && MemoryLayout<Point>.stride == 2 * MemoryLayout<Double>.stride
}

/// Calls `body` with the positions of `points` as `2 * points.count` interleaved doubles.
func withXYBuffer<R>(_ points: [Point], _ body: (UnsafeBufferPointer<Double>) -> R) -> R {
    if PointBuffer.isInterleavedXY {
        return points.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: Double.self) { body($0) }
        }
    }
    var xy: [Double] = []
    xy.reserveCapacity(2 * points.count)
    for p in points {
        xy.append(p.x)
        xy.append(p.y)
    }
    return xy.withUnsafeBufferPointer { body($0) }
}

/// Makes `count` points from `2 * count` interleaved doubles that `fill` writes. `fill` must
/// initialise every double (GEOS's copy-to-buffer does).
func makePointArray(count: Int, _ fill: (UnsafeMutableBufferPointer<Double>) -> Void) -> [Point] {
    if PointBuffer.isInterleavedXY {
        return [Point](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.withMemoryRebound(to: Double.self) { doubles in
                // Zero first, so the memory is initialised even if `fill` fails part-way.
                doubles.initialize(repeating: 0)
                fill(doubles)
            }
            initialized = count
        }
    }
    var xy = [Double](repeating: 0, count: 2 * count)
    xy.withUnsafeMutableBufferPointer { fill($0) }
    return (0..<count).map { Point(x: xy[2 * $0], y: xy[2 * $0 + 1]) }
}
