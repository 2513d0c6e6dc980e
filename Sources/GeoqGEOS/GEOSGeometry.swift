import CGEOS
import GeoqCore

/// The owner of one GEOS geometry (`GEOSGeometry*`).
///
/// Ownership: the object owns its pointer and destroys it with `GEOSGeom_destroy_r` in
/// `deinit`, using its ``context``, which it keeps alive. GEOS geometries are immutable once
/// built here; nothing outside this module sees the pointer.
///
/// Thread rule: the same as its context's — one thread or task at a time; not `Sendable`.
///
/// Make geometries with ``GEOSContext/makeGeometry(_:)`` (and its typed variants) or
/// ``GEOSContext/readWKT(_:)``; get core values back with ``toCore()``.
public final class GEOSGeometry {
    /// The context that made this geometry; every operation on it must use the same context.
    public let context: GEOSContext
    /// The owned GEOS geometry.
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`, which `context` created.
    init(owning pointer: OpaquePointer, context: GEOSContext) {
        self.pointer = pointer
        self.context = context
    }

    deinit {
        GEOSGeom_destroy_r(context.handle, pointer)
    }

    /// True for a geometry with no positions (`POINT EMPTY`, `MULTIPOLYGON EMPTY`, ...).
    public var isEmpty: Bool {
        get throws(GEOSError) {
            try context.predicateResult(GEOSisEmpty_r(context.handle, pointer), "isEmpty")
        }
    }

    /// The Simple Features type name as GEOS spells it: `Point`, `LineString`, `LinearRing`,
    /// `Polygon`, `MultiPoint`, `MultiLineString`, `MultiPolygon` or `GeometryCollection`.
    public var typeName: String {
        get throws(GEOSError) {
            let id = GEOSGeomTypeId_r(context.handle, pointer)
            guard let name = GEOSGeometry.typeNames[Int(id)] else { throw context.error("typeName") }
            return name
        }
    }

    /// GEOS's type names, indexed by `GEOSGeomTypes` value.
    static let typeNames: [Int: String] = [
        Int(GEOS_POINT.rawValue): "Point",
        Int(GEOS_LINESTRING.rawValue): "LineString",
        Int(GEOS_LINEARRING.rawValue): "LinearRing",
        Int(GEOS_POLYGON.rawValue): "Polygon",
        Int(GEOS_MULTIPOINT.rawValue): "MultiPoint",
        Int(GEOS_MULTILINESTRING.rawValue): "MultiLineString",
        Int(GEOS_MULTIPOLYGON.rawValue): "MultiPolygon",
        Int(GEOS_GEOMETRYCOLLECTION.rawValue): "GeometryCollection",
    ]

    /// Well-known text, with trimmed numbers (`POINT (1 2)`), full round-trip precision, and
    /// Z kept when the geometry has it.
    public var wkt: String {
        get throws(GEOSError) {
            let writer = try context.writer()
            guard let text = GEOSWKTWriter_write_r(context.handle, writer, pointer) else {
                throw context.error("writeWKT")
            }
            return context.takeString(text)
        }
    }
}

@available(*, unavailable, message: "A GEOS geometry belongs to its context's thread or task")
extension GEOSGeometry: Sendable {}

// MARK: - Core -> GEOS

extension GEOSContext {
    /// Builds the GEOS twin of a core geometry (same type, same positions, same ring order).
    ///
    /// Coordinates are copied in bulk (`GEOSCoordSeq_copyFromBuffer_r`). GEOS checks what the
    /// core does not, so a one-position `.lineString` throws.
    /// - Throws: ``GEOSError`` with GEOS's message when GEOS rejects the input.
    public func makeGeometry(_ geometry: Geometry) throws(GEOSError) -> GEOSGeometry {
        let raw: OpaquePointer
        switch geometry {
        case .point(let p): return try makePoint(p)
        case .polygon(let p): return try makePolygon(p)
        case .multiPolygon(let mp): return try makeMultiPolygon(mp)
        case .lineString(let points):
            raw = try rawLineString(points)
        case .multiPoint(let points):
            var parts: [OpaquePointer] = []
            parts.reserveCapacity(points.count)
            for p in points {
                guard let part = GEOSGeom_createPointFromXY_r(handle, p.x, p.y) else {
                    destroy(parts)
                    throw error("makeMultiPoint")
                }
                parts.append(part)
            }
            raw = try rawCollection(GEOS_MULTIPOINT, parts, "makeMultiPoint")
        case .multiLineString(let lines):
            var parts: [OpaquePointer] = []
            parts.reserveCapacity(lines.count)
            for line in lines {
                do { parts.append(try rawLineString(line)) } catch {
                    destroy(parts)
                    throw error
                }
            }
            raw = try rawCollection(GEOS_MULTILINESTRING, parts, "makeMultiLineString")
        }
        return GEOSGeometry(owning: raw, context: self)
    }

    /// A GEOS point at `p` (x = longitude/easting, y = latitude/northing).
    public func makePoint(_ p: Point) throws(GEOSError) -> GEOSGeometry {
        guard let raw = GEOSGeom_createPointFromXY_r(handle, p.x, p.y) else { throw error("makePoint") }
        return GEOSGeometry(owning: raw, context: self)
    }

    /// A GEOS polygon with the same shell and holes.
    public func makePolygon(_ polygon: Polygon) throws(GEOSError) -> GEOSGeometry {
        GEOSGeometry(owning: try rawPolygon(polygon), context: self)
    }

    /// A GEOS multipolygon with the same parts, in order.
    public func makeMultiPolygon(_ multiPolygon: MultiPolygon) throws(GEOSError) -> GEOSGeometry {
        var parts: [OpaquePointer] = []
        parts.reserveCapacity(multiPolygon.polygons.count)
        for polygon in multiPolygon.polygons {
            do { parts.append(try rawPolygon(polygon)) } catch {
                destroy(parts)
                throw error
            }
        }
        let raw = try rawCollection(GEOS_MULTIPOLYGON, parts, "makeMultiPolygon")
        return GEOSGeometry(owning: raw, context: self)
    }

    /// Parses well-known text (2D or 3D; Z is kept in GEOS and dropped by ``GEOSGeometry/toCore()``).
    /// - Throws: ``GEOSError`` with GEOS's parse message.
    public func readWKT(_ text: String) throws(GEOSError) -> GEOSGeometry {
        let reader = try reader()
        guard let raw = GEOSWKTReader_read_r(handle, reader, text) else { throw error("readWKT") }
        return GEOSGeometry(owning: raw, context: self)
    }

    // MARK: Raw builders. Each returns an owned pointer or throws having freed what it made.

    private func destroy(_ geometries: [OpaquePointer]) {
        for g in geometries { GEOSGeom_destroy_r(handle, g) }
    }

    private func rawCoordinateSequence(_ points: [Point]) throws(GEOSError) -> OpaquePointer {
        guard let count = UInt32(exactly: points.count) else {
            throw GEOSError(
                operation: "makeCoordinateSequence", message: "\(points.count) positions is too many for GEOS")
        }
        let sequence = withXYBuffer(points) { xy in
            GEOSCoordSeq_copyFromBuffer_r(handle, xy.baseAddress, count, 0, 0)
        }
        guard let sequence else { throw error("makeCoordinateSequence") }
        return sequence
    }

    private func rawLineString(_ points: [Point]) throws(GEOSError) -> OpaquePointer {
        let sequence = try rawCoordinateSequence(points)
        // The line string takes ownership of the sequence, also when it throws.
        guard let line = GEOSGeom_createLineString_r(handle, sequence) else { throw error("makeLineString") }
        return line
    }

    private func rawRing(_ ring: Ring) throws(GEOSError) -> OpaquePointer {
        let sequence = try rawCoordinateSequence(ring.points.array)
        // The ring takes ownership of the sequence, also when it throws.
        guard let raw = GEOSGeom_createLinearRing_r(handle, sequence) else { throw error("makeLinearRing") }
        return raw
    }

    private func rawPolygon(_ polygon: Polygon) throws(GEOSError) -> OpaquePointer {
        let shell = try rawRing(polygon.shell)
        var holes: [OpaquePointer?] = []
        holes.reserveCapacity(polygon.holes.count)
        for hole in polygon.holes {
            do { holes.append(try rawRing(hole)) } catch {
                GEOSGeom_destroy_r(handle, shell)
                destroy(holes.compactMap { $0 })
                throw error
            }
        }
        // The polygon takes ownership of the shell and the holes (not of the array), also when
        // it fails (GEOS frees them on its error path).
        let count = UInt32(holes.count)
        let raw = holes.withUnsafeMutableBufferPointer { buffer in
            GEOSGeom_createPolygon_r(handle, shell, buffer.baseAddress, count)
        }
        guard let raw else { throw error("makePolygon") }
        return raw
    }

    private func rawCollection(
        _ type: GEOSGeomTypes, _ parts: [OpaquePointer], _ operation: String
    ) throws(GEOSError) -> OpaquePointer {
        // The collection takes ownership of the parts (not of the array), also on failure.
        var parts = parts.map { Optional($0) }
        let count = UInt32(parts.count)
        let raw = parts.withUnsafeMutableBufferPointer { buffer in
            GEOSGeom_createCollection_r(handle, Int32(type.rawValue), buffer.baseAddress, count)
        }
        guard let raw else { throw error(operation) }
        return raw
    }
}

// MARK: - GEOS -> core

extension GEOSGeometry {
    /// The core value with the same positions (x, y only: Z and M are dropped).
    ///
    /// Types: Point, MultiPoint, LineString (and LinearRing, as a line string),
    /// MultiLineString, Polygon and MultiPolygon map to the matching ``Geometry`` case;
    /// a GeometryCollection throws.
    ///
    /// Empty geometries: the core has no empty geometry, so an empty geometry at the top level
    /// (`POINT EMPTY`, `POLYGON EMPTY`, `MULTIPOLYGON EMPTY`, ...) throws a ``GEOSError``;
    /// check ``isEmpty`` first when GEOS may produce one. Empty *parts* of a non-empty
    /// multi-geometry carry no positions and are left out.
    public func toCore() throws(GEOSError) -> Geometry {
        let h = context.handle
        if try isEmpty {
            throw GEOSError(operation: "toCore", message: "empty \(try typeName) has no core representation")
        }
        let type = GEOSGeomTypeId_r(h, pointer)
        switch type {
        case Int32(GEOS_POINT.rawValue):
            return .point(try readPoint(pointer))
        case Int32(GEOS_LINESTRING.rawValue), Int32(GEOS_LINEARRING.rawValue):
            return .lineString(try readSequence(of: pointer))
        case Int32(GEOS_POLYGON.rawValue):
            return .polygon(try readPolygon(pointer))
        case Int32(GEOS_MULTIPOINT.rawValue):
            return .multiPoint(try readNonEmptyParts { part throws(GEOSError) in try readPoint(part) })
        case Int32(GEOS_MULTILINESTRING.rawValue):
            return .multiLineString(try readNonEmptyParts { part throws(GEOSError) in try readSequence(of: part) })
        case Int32(GEOS_MULTIPOLYGON.rawValue):
            return .multiPolygon(
                MultiPolygon(try readNonEmptyParts { part throws(GEOSError) in try readPolygon(part) }))
        case Int32(GEOS_GEOMETRYCOLLECTION.rawValue):
            throw GEOSError(operation: "toCore", message: "a GeometryCollection has no core representation")
        default:
            throw context.error("toCore")
        }
    }

    /// Maps each non-empty part of this collection. Parts are borrowed (owned by `pointer`).
    private func readNonEmptyParts<T>(
        _ read: (OpaquePointer) throws(GEOSError) -> T
    ) throws(GEOSError) -> [T] {
        let h = context.handle
        let n = GEOSGetNumGeometries_r(h, pointer)
        guard n >= 0 else { throw context.error("toCore") }
        var result: [T] = []
        result.reserveCapacity(Int(n))
        for i in 0..<n {
            guard let part = GEOSGetGeometryN_r(h, pointer, i) else { throw context.error("toCore") }
            let empty = try context.predicateResult(GEOSisEmpty_r(h, part), "toCore")
            if !empty { result.append(try read(part)) }
        }
        return result
    }

    private func readPoint(_ point: OpaquePointer) throws(GEOSError) -> Point {
        var x = 0.0
        var y = 0.0
        guard GEOSGeomGetX_r(context.handle, point, &x) == 1, GEOSGeomGetY_r(context.handle, point, &y) == 1
        else { throw context.error("toCore") }
        return Point(x: x, y: y)
    }

    /// The positions of a line string or linear ring (borrowed pointer).
    private func readSequence(of line: OpaquePointer) throws(GEOSError) -> [Point] {
        let h = context.handle
        guard let sequence = GEOSGeom_getCoordSeq_r(h, line) else { throw context.error("toCore") }
        var size: UInt32 = 0
        guard GEOSCoordSeq_getSize_r(h, sequence, &size) == 1 else { throw context.error("toCore") }
        var ok = true
        let points = makePointArray(count: Int(size)) { xy in
            ok = GEOSCoordSeq_copyToBuffer_r(h, sequence, xy.baseAddress, 0, 0) == 1
        }
        guard ok else { throw context.error("toCore") }
        return points
    }

    private func readRing(_ ring: OpaquePointer) throws(GEOSError) -> Ring {
        let points = try readSequence(of: ring)
        do { return try Ring(points) } catch {
            throw GEOSError(operation: "toCore", message: error.description)
        }
    }

    private func readPolygon(_ polygon: OpaquePointer) throws(GEOSError) -> Polygon {
        let h = context.handle
        guard let shell = GEOSGetExteriorRing_r(h, polygon) else { throw context.error("toCore") }
        let holeCount = GEOSGetNumInteriorRings_r(h, polygon)
        guard holeCount >= 0 else { throw context.error("toCore") }
        var holes: [Ring] = []
        holes.reserveCapacity(Int(holeCount))
        for i in 0..<holeCount {
            guard let hole = GEOSGetInteriorRingN_r(h, polygon, i) else { throw context.error("toCore") }
            holes.append(try readRing(hole))
        }
        return Polygon(shell: try readRing(shell), holes: holes)
    }
}
