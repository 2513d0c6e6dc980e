import GeoqCore

/// GeoPackage binary geometry (GeoPackage 1.3, clause 2.1.3): the `GP` header, then ISO WKB.
///
/// Writing: version 0, little-endian, envelope `[minx, maxx, miny, maxy]` (none for points, as
/// the spec recommends), the empty flag for geometries without positions, ISO WKB little-endian
/// 2D: Point (1), LineString (2), Polygon (3), MultiPoint (4), MultiLineString (5),
/// MultiPolygon (6).
///
/// Reading also accepts big-endian headers and WKB, every envelope indicator 0...4, and Z, M and
/// ZM types (1001…, 2001…, 3001…: the extra ordinates are dropped). Every read is bounds-checked;
/// malformed input throws ``StoreError`` with code `bad-geometry`, never traps.
public enum GPKGGeometry {
    /// Encodes `geometry` with the given SRS id (4326 for WGS84 longitude/latitude).
    public static func encode(_ geometry: Geometry, srsID: Int32 = 4326) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(geometry, srsID: srsID, into: &bytes)
        return bytes
    }

    /// ``encode(_:srsID:)`` into `bytes`, replacing what they held but keeping their memory: a
    /// writer of many large blobs reuses one buffer instead of allocating each anew. `box` is
    /// the geometry's bounding box, when the caller has it already.
    static func encode(
        _ geometry: Geometry, srsID: Int32 = 4326, box known: BoundingBox? = nil, into bytes: inout [UInt8]
    ) {
        bytes.removeAll(keepingCapacity: true)
        var writer = WKBWriter()
        swap(&writer.bytes, &bytes)
        defer { swap(&writer.bytes, &bytes) }
        let box = known ?? geometry.boundingBox
        let isEmpty = box.isEmpty
        let hasEnvelope: Bool
        if case .point = geometry { hasEnvelope = false } else { hasEnvelope = !isEmpty }
        writer.bytes.reserveCapacity(64 + WKBWriter.size(of: geometry))
        writer.bytes.append(0x47)  // G
        writer.bytes.append(0x50)  // P
        writer.bytes.append(0)  // version 1 (stored as 0)
        var flags: UInt8 = 0x01  // little-endian
        if hasEnvelope { flags |= 1 << 1 }
        if isEmpty { flags |= 1 << 4 }
        writer.bytes.append(flags)
        writer.uint32(UInt32(bitPattern: srsID))
        if hasEnvelope {
            writer.double(box.minX)
            writer.double(box.maxX)
            writer.double(box.minY)
            writer.double(box.maxY)
        }
        writer.wkb(geometry)
    }

    /// Decodes a GeoPackage geometry blob.
    public static func decode(_ bytes: [UInt8]) throws(StoreError) -> Geometry {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(StoreError) -> Geometry in try decode(buffer) }
        }
        return try result.get()
    }

    /// Decodes a GeoPackage geometry blob in place (no copy); `buffer` need not be aligned.
    /// Polygon rings' positions go into `rings` while it has room (so that a layer's rings lie
    /// in one buffer, back to back), else into arrays of their own.
    public static func decode(_ buffer: UnsafeRawBufferPointer, rings: PointArena? = nil) throws(StoreError) -> Geometry
    {
        var reader = WKBReader(buffer: buffer)
        reader.rings = rings
        guard buffer.count >= 8 else {
            throw StoreError(.badGeometry, "blob of \(buffer.count) bytes is shorter than the 8-byte GeoPackage header")
        }
        guard buffer[0] == 0x47, buffer[1] == 0x50 else {
            throw StoreError(
                .badGeometry,
                "blob does not start with the GeoPackage magic 'GP' (found \(hex(buffer[0])) \(hex(buffer[1])))")
        }
        guard buffer[2] == 0 else {
            throw StoreError(.badGeometry, "unsupported GeoPackage binary version \(buffer[2]) (expected 0)")
        }
        let flags = buffer[3]
        guard flags & 0x20 == 0 else {
            throw StoreError(.badGeometry, "extended GeoPackage geometry (flag X) is not supported")
        }
        let envelopeIndicator = Int((flags >> 1) & 0x07)
        let envelopeDoubles: Int
        switch envelopeIndicator {
        case 0: envelopeDoubles = 0
        case 1: envelopeDoubles = 4
        case 2, 3: envelopeDoubles = 6
        case 4: envelopeDoubles = 8
        default:
            throw StoreError(.badGeometry, "invalid envelope indicator \(envelopeIndicator) (expected 0...4)")
        }
        reader.offset = 8 + envelopeDoubles * 8
        guard reader.offset <= buffer.count else {
            throw StoreError(
                .badGeometry, "blob of \(buffer.count) bytes is shorter than its header and envelope (\(reader.offset))"
            )
        }
        let geometry = try reader.geometry(nested: nil)
        return geometry
    }

    fileprivate static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}

// MARK: - Writing

struct WKBWriter {
    var bytes: [UInt8] = []

    mutating func uint32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func header(_ type: UInt32) {
        bytes.append(0x01)
        uint32(type)
    }

    mutating func points(_ points: [Point]) {
        points.withUnsafeBufferPointer { positions($0) }
    }

    mutating func points(_ ring: RingPoints) {
        ring.withUnsafeBufferPointer { positions($0) }
    }

    mutating func positions(_ points: UnsafeBufferPointer<Point>) {
        uint32(UInt32(points.count))
        #if _endian(little)
            // A Point is two Doubles, x then y, which is WKB's little-endian position: one copy.
            if MemoryLayout<Point>.size == 16, MemoryLayout<Point>.stride == 16 {
                bytes.append(contentsOf: UnsafeRawBufferPointer(points))
                return
            }
        #endif
        for p in points {
            double(p.x)
            double(p.y)
        }
    }

    mutating func polygon(_ polygon: Polygon) {
        header(3)
        uint32(UInt32(1 + polygon.holes.count))
        points(polygon.shell.points)
        for hole in polygon.holes { points(hole.points) }
    }

    /// The length of ``wkb(_:)``'s output for `geometry`, to reserve it at once.
    static func size(of geometry: Geometry) -> Int {
        func polygon(_ p: Polygon) -> Int { 9 + 4 * (1 + p.holes.count) + 16 * p.vertexCount }
        switch geometry {
        case .point: return 21
        case .lineString(let ps): return 9 + 16 * ps.count
        case .polygon(let p): return polygon(p)
        case .multiPoint(let ps): return 9 + 21 * ps.count
        case .multiLineString(let lines): return 9 + lines.reduce(0) { $0 + 9 + 16 * $1.count }
        case .multiPolygon(let mp): return 9 + mp.polygons.reduce(0) { $0 + polygon($1) }
        }
    }

    mutating func wkb(_ geometry: Geometry) {
        switch geometry {
        case .point(let p):
            header(1)
            double(p.x)
            double(p.y)
        case .lineString(let ps):
            header(2)
            points(ps)
        case .polygon(let p):
            polygon(p)
        case .multiPoint(let ps):
            header(4)
            uint32(UInt32(ps.count))
            for p in ps {
                header(1)
                double(p.x)
                double(p.y)
            }
        case .multiLineString(let lines):
            header(5)
            uint32(UInt32(lines.count))
            for line in lines {
                header(2)
                points(line)
            }
        case .multiPolygon(let mp):
            header(6)
            uint32(UInt32(mp.polygons.count))
            for p in mp.polygons { polygon(p) }
        }
    }
}

// MARK: - Reading

/// A bounds-checked cursor over WKB.
struct WKBReader {
    let buffer: UnsafeRawBufferPointer
    var offset = 0
    /// Where polygon rings' positions go while it has room (see ``GPKGGeometry/decode(_:rings:)``).
    var rings: PointArena?

    init(buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    func truncated(_ what: String) -> StoreError {
        StoreError(.badGeometry, "blob truncated at byte \(offset) of \(buffer.count) reading \(what)")
    }

    mutating func byte(_ what: String) throws(StoreError) -> UInt8 {
        guard offset < buffer.count else { throw truncated(what) }
        defer { offset += 1 }
        return buffer[offset]
    }

    mutating func uint32(bigEndian: Bool, _ what: String) throws(StoreError) -> UInt32 {
        guard buffer.count - offset >= 4 else { throw truncated(what) }
        let raw = buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
    }

    @inline(__always)
    func double(at byteOffset: Int, bigEndian: Bool) -> Double {
        let raw = buffer.loadUnaligned(fromByteOffset: byteOffset, as: UInt64.self)
        return Double(bitPattern: bigEndian ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw))
    }

    /// Checks that `count` positions of `dimensions` ordinates each follow, then hands each
    /// one's x and y to `body` and moves past them.
    @inline(__always)
    mutating func readPositions(
        count: Int, dimensions: Int, bigEndian: Bool, _ body: (Point) -> Void
    ) throws(StoreError) {
        let stride = dimensions * 8
        guard count <= (buffer.count - offset) / stride else {
            throw StoreError(
                .badGeometry,
                "blob claims \(count) positions at byte \(offset) but only \(buffer.count - offset) bytes remain")
        }
        var at = offset
        for _ in 0..<count {
            body(Point(x: double(at: at, bigEndian: bigEndian), y: double(at: at + 8, bigEndian: bigEndian)))
            at += stride
        }
        offset = at
    }

    /// Reads `count` positions of `dimensions` ordinates each, keeping x and y.
    mutating func positions(count: Int, dimensions: Int, bigEndian: Bool) throws(StoreError) -> [Point] {
        var points = [Point]()
        points.reserveCapacity(Swift.min(count, (buffer.count - offset) / (dimensions * 8)))
        try readPositions(count: count, dimensions: dimensions, bigEndian: bigEndian) { points.append($0) }
        return points
    }

    /// Reads `count` positions into ``rings`` and says where they start, or nil (nothing read)
    /// when there is no such buffer or it has no room for them and a closing position: the
    /// caller reads them into an array. A buffer that runs out of room is not used again, so
    /// that the rings in it stay back to back.
    mutating func sharedPositions(count: Int, dimensions: Int, bigEndian: Bool) throws(StoreError) -> Int? {
        // Positions the blob does not hold are left to positions(count:…), which says so.
        guard let sink = rings, count <= (buffer.count - offset) / (dimensions * 8) else { return nil }
        guard count < sink.free else {
            rings = nil
            return nil
        }
        sink.reserve(count + 1)
        let start = sink.count
        try readPositions(count: count, dimensions: dimensions, bigEndian: bigEndian) { sink.append($0) }
        return start
    }

    mutating func count(bigEndian: Bool, _ what: String) throws(StoreError) -> Int {
        Int(try uint32(bigEndian: bigEndian, what))
    }

    /// One WKB geometry. `nested` is the base type a multi-geometry allows for its parts.
    mutating func geometry(nested: UInt32?) throws(StoreError) -> Geometry {
        let order = try byte("the WKB byte order")
        guard order <= 1 else {
            throw StoreError(.badGeometry, "invalid WKB byte order \(order) at byte \(offset - 1)")
        }
        let bigEndian = order == 0
        let rawType = try uint32(bigEndian: bigEndian, "the WKB type")
        let base = rawType % 1000
        let dimensions: Int
        switch rawType / 1000 {
        case 0: dimensions = 2
        case 1, 2: dimensions = 3
        case 3: dimensions = 4
        default: throw StoreError(.badGeometry, "unsupported WKB geometry type \(rawType)")
        }
        if let nested, base != nested {
            throw StoreError(.badGeometry, "WKB type \(rawType) inside a collection of type \(nested)")
        }
        switch base {
        case 1:
            let p = try positions(count: 1, dimensions: dimensions, bigEndian: bigEndian)[0]
            guard p.x.isFinite, p.y.isFinite else {
                throw StoreError(.badGeometry, "empty or non-finite point (\(p.x) \(p.y))")
            }
            return .point(p)
        case 2:
            let n = try count(bigEndian: bigEndian, "a line's position count")
            return .lineString(try positions(count: n, dimensions: dimensions, bigEndian: bigEndian))
        case 3:
            return .polygon(try polygon(dimensions: dimensions, bigEndian: bigEndian))
        case 4, 5, 6:
            let n = try count(bigEndian: bigEndian, "a collection's part count")
            // Each part takes at least 9 bytes: refuse absurd counts before allocating.
            guard n <= (buffer.count - offset) / 9 else {
                throw StoreError(
                    .badGeometry,
                    "blob claims \(n) parts at byte \(offset) but only \(buffer.count - offset) bytes remain")
            }
            switch base {
            case 4:
                var points = [Point]()
                points.reserveCapacity(n)
                for _ in 0..<n {
                    guard case .point(let p) = try geometry(nested: 1) else { break }
                    points.append(p)
                }
                return .multiPoint(points)
            case 5:
                var lines = [[Point]]()
                lines.reserveCapacity(n)
                for _ in 0..<n {
                    guard case .lineString(let l) = try geometry(nested: 2) else { break }
                    lines.append(l)
                }
                return .multiLineString(lines)
            default:
                var polygons = [Polygon]()
                polygons.reserveCapacity(n)
                for _ in 0..<n {
                    guard case .polygon(let p) = try geometry(nested: 3) else { break }
                    polygons.append(p)
                }
                return .multiPolygon(MultiPolygon(polygons))
            }
        default:
            throw StoreError(
                .badGeometry,
                "unsupported WKB geometry type \(rawType) (only Point, LineString, Polygon and their Multi types)")
        }
    }

    mutating func polygon(dimensions: Int, bigEndian: Bool) throws(StoreError) -> Polygon {
        let ringCount = try count(bigEndian: bigEndian, "a polygon's ring count")
        guard ringCount >= 1 else { throw StoreError(.badGeometry, "empty polygon (no rings) is not supported") }
        guard ringCount <= (buffer.count - offset) / 4 else {
            throw StoreError(
                .badGeometry,
                "blob claims \(ringCount) rings at byte \(offset) but only \(buffer.count - offset) bytes remain")
        }
        var decoded = [Ring]()
        decoded.reserveCapacity(ringCount)
        for index in 0..<ringCount {
            let n = try count(bigEndian: bigEndian, "a ring's position count")
            let shared = try sharedPositions(count: n, dimensions: dimensions, bigEndian: bigEndian)
            let points = shared == nil ? try positions(count: n, dimensions: dimensions, bigEndian: bigEndian) : []
            do throws(GeometryError) {
                if let start = shared, let sink = rings, let ring = try Ring(closingPositionsOf: sink, from: start) {
                    decoded.append(ring)
                } else {
                    decoded.append(try Ring(closing: points))
                }
            } catch {
                throw StoreError(.badGeometry, "ring \(index) of a polygon is invalid: \(error)")
            }
        }
        return Polygon(shell: decoded[0], holes: Array(decoded.dropFirst()))
    }
}
