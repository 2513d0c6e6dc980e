import GeoqCore

/// A tile of the OGC WebMercatorQuad tiling scheme (EPSG:3857, the scheme of XYZ slippy maps):
/// at zoom `z` the world square is cut into 2^z × 2^z tiles, column `x` counted eastwards from
/// longitude -180 and row `y` southwards from latitude +``WebMercator/maximumLatitude``, so tile
/// (0, 0) is the north-west corner.
///
/// Invariant: `z` is in ``zoomLevels`` and `x`, `y` are in `0 ..< 2^z`, checked by the
/// initializer. Tiles order by zoom, then column, then row.
public struct TileID: Hashable, Sendable, Comparable {
    /// The zoom levels a tile may have; at 24 a tile spans about 2.4 m at the equator.
    public static let zoomLevels: ClosedRange<Int> = 0...24

    public let z: Int
    public let x: Int
    public let y: Int

    /// The tile at zoom `z`, column `x`, row `y`.
    public init(z: Int, x: Int, y: Int) throws(TileError) {
        guard Self.zoomLevels.contains(z) else { throw .zoomOutOfRange(z) }
        let n = 1 << z
        guard x >= 0 && x < n else { throw .columnOutOfRange(x: x, zoom: z) }
        guard y >= 0 && y < n else { throw .rowOutOfRange(y: y, zoom: z) }
        self.init(validZ: z, x: x, y: y)
    }

    /// For callers that have already checked the ranges.
    init(validZ z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// The number of tiles along each side of the world at this tile's zoom, 2^z.
    @inlinable public var tilesPerSide: Int { 1 << z }

    /// The tile's extent in longitude (x) and latitude (y), degrees. The north and south edges
    /// of the outermost rows are ±``WebMercator/maximumLatitude``.
    public var bounds: BoundingBox {
        let n = Double(tilesPerSide)
        return BoundingBox(
            minX: WebMercator.longitude(x: Double(x) / n), minY: WebMercator.latitude(y: Double(y + 1) / n),
            maxX: WebMercator.longitude(x: Double(x + 1) / n), maxY: WebMercator.latitude(y: Double(y) / n))
    }

    /// The tile at zoom `zoom` that contains `point` (longitude, latitude). A point on an edge
    /// belongs to the tile east or south of it; longitudes are clamped to ±180 and latitudes
    /// to ±``WebMercator/maximumLatitude``, so the eastern and southern limits fall in the
    /// last column and row.
    public static func containing(_ point: Point, zoom: Int) throws(TileError) -> TileID {
        guard zoomLevels.contains(zoom) else { throw .zoomOutOfRange(zoom) }
        let n = 1 << zoom
        let x = Swift.min(Swift.max(Int((WebMercator.x(longitude: point.x) * Double(n)).rounded(.down)), 0), n - 1)
        let y = Swift.min(Swift.max(Int((WebMercator.y(latitude: point.y) * Double(n)).rounded(.down)), 0), n - 1)
        return TileID(validZ: zoom, x: x, y: y)
    }

    /// The tiles at zoom `zoom` whose area meets `box` (longitude, latitude), column by column
    /// (see ``TileRange``). A box that only touches a tile's east or south edge does not bring
    /// that tile in, so the bounds of a tile cover exactly that tile; an empty box covers none.
    public static func tiles(covering box: BoundingBox, zoom: Int) throws(TileError) -> TileRange {
        guard zoomLevels.contains(zoom) else { throw .zoomOutOfRange(zoom) }
        guard !box.isEmpty else { return TileRange(zoom: zoom, columns: 0..<0, rows: 0..<0) }
        let n = Double(1 << zoom)
        let west = WebMercator.x(longitude: Swift.max(box.minX, -180)) * n
        let east = WebMercator.x(longitude: Swift.min(box.maxX, 180)) * n
        let north = WebMercator.y(latitude: box.maxY) * n
        let south = WebMercator.y(latitude: box.minY) * n
        return TileRange(
            zoom: zoom, columns: cells(from: west, to: east, n: n), rows: cells(from: north, to: south, n: n))
    }

    /// The cells `lo ... hi` (tile units) meets, edges snapped within 1e-9 of a tile so that a
    /// tile's own bounds, rounded on the way through the projection, give back that tile.
    private static func cells(from lo: Double, to hi: Double, n: Double) -> Range<Int> {
        guard lo <= hi else { return 0..<0 }
        func snapped(_ v: Double) -> Double {
            let r = v.rounded()
            return Swift.abs(v - r) < 1e-9 ? r : v
        }
        let first = snapped(lo).rounded(.down)
        // A box of no width still meets the cell it lies in.
        let last = Swift.max(first + 1, snapped(hi).rounded(.up))
        let upper = Int(Swift.min(last, n))
        let lower = Int(Swift.max(first, 0))
        return lower < upper ? lower..<upper : 0..<0
    }

    public static func < (a: TileID, b: TileID) -> Bool {
        (a.z, a.x, a.y) < (b.z, b.x, b.y)
    }
}

extension TileID: CustomStringConvertible {
    /// `z/x/y`, as in tile URLs.
    public var description: String { "\(z)/\(x)/\(y)" }
}
