import Foundation
import GeoqCore

/// Reads RSS 2.0 and Atom feeds with GeoRSS Simple (`georss:point`, `line`, `polygon`, `box`),
/// GeoRSS GML (`gml:Point/gml:pos`, `gml:LineString/gml:posList`, `gml:Polygon` with exterior
/// and interior rings, `srsName`, `srsDimension`) and W3C geo (`geo:lat`, `geo:long`).
///
/// Streaming: entries are handed to `each` as they close; the reader keeps only the entry being
/// read, so memory does not grow with the feed. Elements are matched by their namespace, else by
/// their usual prefixes (`georss:`, `gml:`, `geo:`, `dc:`; see ``FeedVocabulary``); a `gml:Point`
/// directly inside an entry (without `georss:where`) is accepted too.
///
/// A geo element that cannot give a geometry (no coordinates, an odd count, a polygon of fewer
/// than four positions or not closed, latitude beyond ±90) leaves the entry without location and
/// says why in ``FeedEntry/locationProblem``; malformed XML is a ``FormatError`` with its line.
public enum GeoRSSFeedReader {
    /// Reads `data`, calling `each` for every entry in document order.
    public static func read(
        data: Data, source: String, each: (FeedEntry) throws -> Void
    ) throws -> FeedHeader {
        try withoutActuallyEscaping(each) { each in
            let handler = FeedHandler(source: source, each: each)
            try XMLElementParsing.run(handler, data: data, expected: "an RSS or Atom feed")
            if let error = handler.consumerError { throw error }
            return try handler.header()
        }
    }

    /// Reads a feed file in chunks (the file is never held whole in memory).
    public static func read(
        file url: URL, each: (FeedEntry) throws -> Void
    ) throws -> FeedHeader {
        guard let file = FileHandle(forReadingAtPath: url.path) else {
            throw FormatError(.fileNotFound, file: url.path, message: "no such file, or not readable")
        }
        defer { try? file.close() }
        return try withoutActuallyEscaping(each) { each in
            let handler = FeedHandler(source: url.path, each: each)
            try XMLElementParsing.run(
                handler, fileDescriptor: file.fileDescriptor, expected: "an RSS or Atom feed")
            if let error = handler.consumerError { throw error }
            return try handler.header()
        }
    }

    /// Reads every entry into an array (for small feeds and tests).
    public static func entries(data: Data, source: String) throws -> (FeedHeader, [FeedEntry]) {
        var entries: [FeedEntry] = []
        let header = try read(data: data, source: source) { entries.append($0) }
        return (header, entries)
    }
}

/// The streaming handler behind ``GeoRSSFeedReader``.
final class FeedHandler: XMLElementParsing {
    private let each: (FeedEntry) throws -> Void
    private(set) var consumerError: Error?
    private var entry: FeedEntry?
    private var format = ""
    private var channel = FeedHeader(title: nil, published: nil, updated: nil, format: "", entryCount: 0)
    // GML being read: the srsName / srsDimension of the innermost geometry, the rings so far.
    private var gmlCRS: String?
    private var gmlDimension = 2
    private var gmlRings: [[Double]] = []
    private var gmlLine: [Double]?
    private var w3cLatitude: String?
    private var w3cLongitude: String?
    /// Atom `<category>`'s `term`, else `label`, while the element is open (RSS gives its text).
    private var categoryAttribute: String?

    init(source: String, each: @escaping (FeedEntry) throws -> Void) {
        self.each = each
        super.init(source: source)
    }

    func header() throws(FormatError) -> FeedHeader {
        guard !format.isEmpty else {
            throw FormatError(.unsupportedFormat, file: source, message: "not an RSS or Atom feed (no <rss> or <feed>)")
        }
        channel.format = format
        return channel
    }

    override var stopsReading: Bool { consumerError != nil || super.stopsReading }

    override func didOpen(_ frame: Frame, attributes: [String: String]) {
        if stack.count == 1 {
            format =
                frame.localName == "rss" || frame.localName == "RDF" ? "rss" : frame.localName == "feed" ? "atom" : ""
        }
        switch (frame.vocabulary, frame.localName) {
        case (.feed, "item"), (.feed, "entry"):
            entry = FeedEntry(line: frame.line)
            w3cLatitude = nil
            w3cLongitude = nil
        case (.feed, "link"):
            if entry != nil, let href = attributes["href"], attributes["rel"] == nil || attributes["rel"] == "alternate"
            {
                entry!.link = href
            }
        case (.feed, "category"):
            categoryAttribute = [attributes["term"], attributes["label"]].lazy.compactMap { $0 }
                .map { $0.trimmingWhitespace() }.first { !$0.isEmpty }
        case (.gml, "Point"), (.gml, "LineString"), (.gml, "Polygon"), (.gml, "Envelope"):
            gmlCRS = attributes["srsName"]
            gmlDimension = Int(attributes["srsDimension"] ?? "") ?? 2
            gmlRings = []
        case (.gml, "pos"), (.gml, "posList"), (.gml, "coordinates"):
            if let dimension = attributes["srsDimension"].flatMap(Int.init) { gmlDimension = dimension }
        default:
            break
        }
    }

    override func didClose(_ frame: Frame) {
        let text = frame.text.trimmingWhitespace()
        guard entry != nil else {
            // Channel / feed level.
            switch (frame.vocabulary, frame.localName) {
            case (.feed, "title") where stack.count <= 2: channel.title = channel.title ?? text
            case (.feed, "pubDate"), (.feed, "published"): channel.published = FeedDate.parse(text)
            case (.dublinCore, "date"), (.feed, "updated"), (.feed, "lastBuildDate"):
                channel.updated = FeedDate.parse(text)
            default: break
            }
            return
        }
        let inEntryDirectly = stack.last.map { $0.localName == "item" || $0.localName == "entry" } ?? false
        switch (frame.vocabulary, frame.localName) {
        case (.feed, "item"), (.feed, "entry"):
            finishEntry()
        case (.feed, "title") where inEntryDirectly: entry!.title = text
        case (.feed, "category") where inEntryDirectly:
            // Only the entry's own: an Atom `<source>` inside it lists the source feed's categories.
            let category = categoryAttribute ?? text
            if !category.isEmpty { entry!.categories.append(category) }
            categoryAttribute = nil
        case (.feed, "link") where inEntryDirectly && !text.isEmpty: entry!.link = text
        case (.feed, "guid"),
            (.feed, "id") where inEntryDirectly:
            entry!.id = text.isEmpty ? nil : text
        case (.feed, "pubDate"), (.feed, "published"): entry!.published = FeedDate.parse(text)
        case (.feed, "updated"), (.dublinCore, "date"): entry!.updated = FeedDate.parse(text)
        case (.feed, "description"), (.feed, "summary"), (.content, "encoded"):
            if entry!.description == nil || entry!.description!.isEmpty { entry!.description = frame.text }
        case (.feed, "content") where inEntryDirectly:
            if entry!.description == nil || entry!.description!.isEmpty { entry!.description = frame.text }
        case (.georss, "point"): simple(text, kind: "point", minimumPairs: 1, exactPairs: 1)
        case (.georss, "line"): simple(text, kind: "line", minimumPairs: 2, exactPairs: nil)
        case (.georss, "polygon"): simple(text, kind: "polygon", minimumPairs: 4, exactPairs: nil)
        case (.georss, "box"): simple(text, kind: "box", minimumPairs: 2, exactPairs: 2)
        case (.gml, "pos"), (.gml, "posList"):
            gmlLine = numbers(text)
            if gmlLine == nil { problem("gml:\(frame.localName) holds something other than numbers") }
        case (.gml, "coordinates"):
            // GML 2: "x,y x,y" tuples.
            gmlLine = numbers(text.replacingOccurrences(of: ",", with: " "))
        case (.gml, "LinearRing"):
            if let line = gmlLine { gmlRings.append(line) }
            gmlLine = nil
        case (.gml, "Point"), (.gml, "LineString"), (.gml, "Polygon"):
            finishGML(frame.localName)
        case (.w3cGeo, "lat"): w3cLatitude = text
        case (.w3cGeo, "long"), (.w3cGeo, "lon"): w3cLongitude = text
        default:
            break
        }
    }

    // MARK: Entries

    private func finishEntry() {
        guard var done = entry else { return }
        entry = nil
        if done.location == nil, let lat = w3cLatitude, let lon = w3cLongitude {
            if let y = Double(lat), let x = Double(lon), (-90...90).contains(y), (-180...180).contains(x) {
                done.location = FeedLocation(
                    geometry: .point(Point(x: x, y: y)), crs: nil, encoding: "w3c", heights: [])
            } else {
                done.locationProblem = "geo:lat '\(lat)' / geo:long '\(lon)' are not a WGS84 position"
            }
        }
        channel.entryCount += 1
        do { try each(done) } catch { consumerError = error }
    }

    private func problem(_ message: String) {
        if entry?.locationProblem == nil { entry?.locationProblem = message }
    }

    private func numbers(_ text: String) -> [Double]? {
        // Split on bytes, not characters: coordinates are ASCII, and grapheme breaking would cost
        // more than the numbers.
        // Space, LF, tab, CR, comma; the words between them read in place (no array of words).
        let isSeparator = { (b: UInt8) in b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D || b == 0x2C }
        var values: [Double] = []
        values.reserveCapacity(2)
        let utf8 = text.utf8
        var i = utf8.startIndex
        while i < utf8.endIndex {
            guard !isSeparator(utf8[i]) else {
                i = utf8.index(after: i)
                continue
            }
            let start = i
            while i < utf8.endIndex, !isSeparator(utf8[i]) { i = utf8.index(after: i) }
            guard let value = Double(Substring(utf8[start..<i])), value.isFinite else { return nil }
            values.append(value)
        }
        return values
    }

    /// GeoRSS Simple: latitude longitude pairs.
    private func simple(_ text: String, kind: String, minimumPairs: Int, exactPairs: Int?) {
        guard let values = numbers(text) else { return problem("georss:\(kind) holds something other than numbers") }
        guard !values.isEmpty else { return problem("georss:\(kind) has no coordinates") }
        guard values.count % 2 == 0 else {
            return problem("georss:\(kind) has an odd count of numbers (\(values.count))")
        }
        let pairs = values.count / 2
        if let exactPairs, pairs != exactPairs {
            return problem("georss:\(kind) needs \(exactPairs) latitude-longitude pair(s), found \(pairs)")
        }
        guard pairs >= minimumPairs else {
            return problem("georss:\(kind) needs at least \(minimumPairs) positions, found \(pairs)")
        }
        var points: [Point] = []
        for i in 0..<pairs {
            let lat = values[2 * i], lon = values[2 * i + 1]
            guard (-90...90).contains(lat), (-180...180).contains(lon) else {
                return problem("georss:\(kind) position \(i + 1) (\(lat) \(lon)) is not latitude longitude")
            }
            points.append(Point(x: lon, y: lat))
        }
        let geometry: Geometry
        switch kind {
        case "point": geometry = .point(points[0])
        case "line": geometry = .lineString(points)
        case "box":
            let (a, b) = (points[0], points[1])
            guard let ring = try? Ring([a, Point(x: b.x, y: a.y), b, Point(x: a.x, y: b.y), a]) else {
                return problem("georss:box corners do not make a box")
            }
            geometry = .polygon(Polygon(shell: ring))
        default:
            guard points.first == points.last, let ring = try? Ring(points) else {
                return problem("georss:polygon is not a closed ring (first position equal to last)")
            }
            geometry = .polygon(Polygon(shell: ring))
        }
        entry?.location = FeedLocation(geometry: geometry, crs: nil, encoding: "simple", heights: [])
    }

    /// GML: positions in the CRS's axis order; WGS84 (no srsName, EPSG 4326/4979, their URNs) is
    /// latitude first. Other geographic CRSs known here are latitude first too; anything else is
    /// x, y (easting, northing).
    private func finishGML(_ kind: String) {
        defer {
            gmlLine = nil
            gmlRings = []
            gmlCRS = nil
            gmlDimension = 2
        }
        let dimension = max(2, gmlDimension)
        let crsCode = gmlCRS.flatMap(Self.epsgCode)
        let wgs84 = gmlCRS == nil || crsCode == 4326 || crsCode == 4979
        let latitudeFirst = wgs84 || crsCode.map(Self.geographicLatitudeFirst.contains) == true
        func positions(_ values: [Double]) -> ([Point], [Double])? {
            guard !values.isEmpty, values.count % dimension == 0 else { return nil }
            var points: [Point] = [], heights: [Double] = []
            for i in stride(from: 0, to: values.count, by: dimension) {
                let (a, b) = (values[i], values[i + 1])
                points.append(latitudeFirst ? Point(x: b, y: a) : Point(x: a, y: b))
                if dimension >= 3 { heights.append(values[i + 2]) }
            }
            return (points, heights)
        }
        let geometry: Geometry
        var heights: [Double] = []
        switch kind {
        case "Point":
            guard let (points, h) = positions(gmlLine ?? []), points.count == 1 else {
                return problem("gml:Point needs one position of \(dimension) numbers")
            }
            geometry = .point(points[0])
            heights = h
        case "LineString":
            guard let (points, h) = positions(gmlLine ?? []), points.count >= 2 else {
                return problem("gml:LineString needs at least 2 positions")
            }
            geometry = .lineString(points)
            heights = h
        default:
            var rings: [Ring] = []
            for values in gmlRings {
                guard let (points, _) = positions(values), points.count >= 4, points.first == points.last,
                    let ring = try? Ring(points)
                else { return problem("gml:Polygon ring needs at least 4 positions, first equal to last") }
                rings.append(ring)
            }
            guard let shell = rings.first else { return problem("gml:Polygon has no exterior ring") }
            geometry = .polygon(Polygon(shell: shell, holes: Array(rings.dropFirst())))
        }
        if wgs84 {
            for p in Self.points(of: geometry) where !(-90...90).contains(p.y) || !(-180...180).contains(p.x) {
                return problem("gml:\(kind) position (\(p.y) \(p.x)) is not latitude longitude")
            }
        }
        let crs = wgs84 ? nil : crsCode.map { "EPSG:\($0)" } ?? gmlCRS
        entry?.location = FeedLocation(geometry: geometry, crs: crs, encoding: "gml", heights: heights)
    }

    private static func points(of geometry: Geometry) -> [Point] {
        switch geometry {
        case .point(let p): [p]
        case .lineString(let points), .multiPoint(let points): points
        case .polygon(let polygon): polygon.rings.flatMap(\.points)
        default: []
        }
    }

    /// Geographic CRSs whose GML axis order is latitude, longitude (ETRS89, ED50, NAD83, NAD27,
    /// WGS84 3D and their 3D forms).
    static let geographicLatitudeFirst: Set<Int> = [4326, 4979, 4258, 4937, 4230, 4269, 4267, 4171, 4019]

    /// `EPSG:26913`, `urn:ogc:def:crs:EPSG:6.6:4979`, `http://www.opengis.net/gml/srs/epsg.xml#4326`.
    static func epsgCode(_ srsName: String) -> Int? {
        let lower = srsName.lowercased()
        guard lower.contains("epsg") else { return nil }
        let digits = lower.reversed().prefix { $0.isNumber }
        return Int(String(digits.reversed()))
    }
}
