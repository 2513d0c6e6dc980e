import Foundation
import GeoqCore

/// One `<item>` (RSS 2.0) or `<entry>` (Atom) of a feed, as written: no HTML cleaning, no
/// reprojection (those belong to the incident model and to PROJ).
public struct FeedEntry: Hashable, Sendable {
    /// `guid` (RSS) or `id` (Atom).
    public var id: String?
    public var title: String?
    /// The official page: RSS `link` text, Atom `link href` (rel alternate or none).
    public var link: String?
    /// RSS `pubDate`, Atom `published`.
    public var published: Date?
    /// Atom `updated`, Dublin Core `dc:date`.
    public var updated: Date?
    /// RSS `description`, Atom `summary` or `content`; may hold HTML.
    public var description: String?
    public var location: FeedLocation?
    /// The entry's own categories in document order: RSS `<category>` text, Atom
    /// `<category>`'s `term` (else its `label`, else its text); trimmed, empty ones dropped.
    public var categories: [String]
    /// Why a geo element of the entry gave no geometry (no coordinates, too few, out of range).
    public var locationProblem: String?
    /// 1-based line of the entry's start tag.
    public var line: Int

    public init(
        id: String? = nil, title: String? = nil, link: String? = nil, published: Date? = nil, updated: Date? = nil,
        description: String? = nil, location: FeedLocation? = nil, categories: [String] = [],
        locationProblem: String? = nil, line: Int
    ) {
        self.id = id
        self.title = title
        self.link = link
        self.published = published
        self.updated = updated
        self.description = description
        self.location = location
        self.categories = categories
        self.locationProblem = locationProblem
        self.line = line
    }
}

/// An entry's geometry with the CRS its numbers are in.
///
/// GeoRSS Simple, W3C geo and GML without `srsName` (or with a WGS84 one) are WGS84: the geometry
/// is already longitude/latitude (x = longitude) and ``crs`` is nil. GML with another `srsName`
/// keeps the numbers in that CRS's x/y order (easting, northing for a UTM zone; longitude,
/// latitude after swapping for a geographic CRS, whose GML order is latitude first) and names
/// the CRS, to be reprojected by the caller.
public struct FeedLocation: Hashable, Sendable {
    public var geometry: Geometry
    public var crs: String?
    /// `simple` (georss:point ...), `gml`, or `w3c` (geo:lat / geo:long).
    public var encoding: String
    /// Heights given with the positions (GML srsDimension 3), dropped from the geometry.
    public var heights: [Double]

    public init(geometry: Geometry, crs: String?, encoding: String, heights: [Double]) {
        self.geometry = geometry
        self.crs = crs
        self.encoding = encoding
        self.heights = heights
    }
}

/// The feed's own fields (channel or feed element).
public struct FeedHeader: Hashable, Sendable {
    public var title: String?
    public var published: Date?
    public var updated: Date?
    /// `rss` or `atom`.
    public var format: String
    public var entryCount: Int
}
