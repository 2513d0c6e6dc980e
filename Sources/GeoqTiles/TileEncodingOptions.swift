/// How features become a tile: the grid, the buffer, how much detail is kept, the size cap and
/// which attributes carry a feature's id and name.
public struct TileEncodingOptions: Hashable, Sendable {
    /// Grid units along a side of the tile. 4096, the MVT default: at 512 screen pixels a tile,
    /// 8 units a pixel, so rounding to the grid is invisible.
    public var extent: Int
    /// Grid units of the margin kept around the tile on each side. 64 (1/64 of the tile), as
    /// Mapbox's and tippecanoe's encoders: enough for line caps, outlines and labels drawn across
    /// a tile edge, and polygons cut by the margin keep their seams off the tile.
    public var buffer: Int
    /// Douglas–Peucker tolerance in grid units. 1.0, as tippecanoe's: below the grid's own
    /// rounding plus half a unit, so nothing visible moves. Pass 0 at the highest zoom the
    /// service serves, where over-zoomed tiles are cut from this one and every vertex counts
    /// (see ``forZoom(_:maximumZoom:)``).
    public var simplificationTolerance: Double
    /// Rings whose area, after rounding, is below this many square grid units are dropped (and a
    /// polygon whose exterior ring is dropped goes with its holes). 1.0: a sixty-fourth of a
    /// pixel at 512 pixels a tile, so only shapes no renderer could show go; a feature with
    /// nothing left is counted as too small.
    public var minimumRingArea: Double
    /// The size cap of a tile in bytes, nil for none. 500 000, tippecanoe's (see ``MVTEncoder``).
    public var maximumTileBytes: Int?
    /// The attribute that carries ``GeoqCore/Feature/id`` as text, nil for none. "id": MVT's own
    /// id is numeric, so a text id would otherwise be lost. A property of that name wins.
    public var idAttribute: String?
    /// The attribute that carries ``GeoqCore/Feature/name`` when the feature has one, nil for
    /// none. "name". A property of that name wins.
    public var nameAttribute: String?

    /// - Precondition: `extent` in 1 ... 2^24 and `buffer` in 0 ... `extent`, so that every grid
    ///   coordinate fits an `Int32` with room to spare.
    public init(
        extent: Int = 4096, buffer: Int = 64, simplificationTolerance: Double = 1.0, minimumRingArea: Double = 1.0,
        maximumTileBytes: Int? = MVTEncoder.defaultMaximumBytes, idAttribute: String? = "id",
        nameAttribute: String? = "name"
    ) {
        precondition(extent >= 1 && extent <= 1 << 24, "a tile's extent must be in 1 ... 2^24")
        precondition(buffer >= 0 && buffer <= extent, "a tile's buffer must be in 0 ... extent")
        self.extent = extent
        self.buffer = buffer
        self.simplificationTolerance = simplificationTolerance
        self.minimumRingArea = minimumRingArea
        self.maximumTileBytes = maximumTileBytes
        self.idAttribute = idAttribute
        self.nameAttribute = nameAttribute
    }

    /// The default options for a tile at zoom `zoom` of a service that serves up to
    /// `maximumZoom`: no simplification at `maximumZoom` and beyond, the default below.
    public static func forZoom(_ zoom: Int, maximumZoom: Int) -> TileEncodingOptions {
        TileEncodingOptions(simplificationTolerance: zoom >= maximumZoom ? 0 : 1.0)
    }
}
