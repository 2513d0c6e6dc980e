import Foundation
import GeoqCore
import GeoqFormats
import GeoqTestSupport
import Testing

/// feedparser's GeoRSS conformance files (../shared/data/georss/feedparser-geo-tests), each
/// checked against the expectation written in its header comment.
@Suite struct GeoRSSConformanceTests {
    static let root = TestData.url("georss/feedparser-geo-tests/tests")

    func read(_ path: String) throws -> (FeedHeader, [FeedEntry]) {
        let url = Self.root.appendingPathComponent(path)
        return try GeoRSSFeedReader.entries(data: Data(contentsOf: url), source: url.path)
    }

    func onlyEntry(_ path: String) throws -> FeedEntry {
        let (_, entries) = try read(path)
        try #require(entries.count == 1)
        return entries[0]
    }

    /// The file's `Expect:` line, so that a changed fixture cannot go unnoticed.
    func expectation(_ path: String) throws -> String {
        let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        return text.split(separator: "\n").first { $0.hasPrefix("Expect:") }.map {
            $0.dropFirst(7).trimmingCharacters(in: .whitespaces)
        } ?? ""
    }

    @Test func georssPoint() throws {
        let path = "wellformed/geo/georss_point.xml"
        #expect(try expectation(path).contains("== (31.1732, 36.9382)"))
        #expect(try onlyEntry(path).location?.geometry == .point(Point(x: 31.1732, y: 36.9382)))
    }

    @Test func georssLine() throws {
        let path = "wellformed/geo/georss_line.xml"
        #expect(try expectation(path).contains("'LineString'"))
        guard case .lineString(let points)? = try onlyEntry(path).location?.geometry else {
            Issue.record("not a line")
            return
        }
        try #require(points.count == 3)
        #expect(points[0] == Point(x: 52.566592, y: 33.338611))
    }

    @Test func georssPolygonIsClosed() throws {
        guard case .polygon(let polygon)? = try onlyEntry("wellformed/geo/georss_polygon.xml").location?.geometry else {
            Issue.record("not a polygon")
            return
        }
        #expect(polygon.shell.points.first == polygon.shell.points.last)
        #expect(polygon.shell.points[0] == Point(x: 52.566592, y: 33.338611))
    }

    @Test func georssBox() throws {
        guard case .polygon(let polygon)? = try onlyEntry("wellformed/geo/georss_box.xml").location?.geometry else {
            Issue.record("not a box")
            return
        }
        // feedparser: coordinates[0] == (52.566592, 33.338611), longitude first.
        #expect(polygon.shell.points[0] == Point(x: 52.566592, y: 33.338611))
        #expect(polygon.shell.points[2] == Point(x: 52.527238, y: 32.537546))
        #expect(polygon.shell.points.count == 5)
    }

    @Test func gmlPointAndLineAndPolygon() throws {
        #expect(
            try onlyEntry("wellformed/geo/gml_point.xml").location
                == FeedLocation(
                    geometry: .point(Point(x: 31.1732, y: 36.9382)), crs: nil, encoding: "gml", heights: []))
        guard case .lineString(let line)? = try onlyEntry("wellformed/geo/gml_linestring.xml").location?.geometry
        else {
            Issue.record("not a line")
            return
        }
        #expect(line[0] == Point(x: 52.566592, y: 33.338611))
        guard case .polygon(let polygon)? = try onlyEntry("wellformed/geo/gml_polygon.xml").location?.geometry else {
            Issue.record("not a polygon")
            return
        }
        #expect(polygon.shell.points.first == polygon.shell.points.last)
    }

    @Test func gmlPoint3DKeepsTheHeightApart() throws {
        let location = try #require(try onlyEntry("wellformed/geo/gml_point_3d.xml").location)
        // feedparser: (-156.2342, 42.3453, 45.0).
        #expect(location.geometry == .point(Point(x: -156.2342, y: 42.3453)))
        #expect(location.heights == [45])
        #expect(location.crs == nil)
    }

    /// A projected srsName: the numbers stay in the CRS's easting/northing order, named for PROJ.
    @Test func gmlInAUTMZoneKeepsItsCRS() throws {
        #expect(try expectation("wellformed/geo/gml_point_utm.xml").contains("== (36.9382, 31.1732)"))
        let point = try #require(try onlyEntry("wellformed/geo/gml_point_utm.xml").location)
        #expect(point.geometry == .point(Point(x: 36.9382, y: 31.1732)))
        #expect(point.crs == "EPSG:26913")
        let line = try #require(try onlyEntry("wellformed/geo/gml_linestring_utm.xml").location)
        guard case .lineString(let points) = line.geometry else {
            Issue.record("not a line")
            return
        }
        #expect(points[0] == Point(x: 33.338611, y: 52.566592))
        #expect(line.crs == "EPSG:26913")
    }

    @Test func illformedGiveEntriesWithoutGeometry() throws {
        let empty = try onlyEntry("illformed/geo/georss_point_no_coords.xml")
        #expect(empty.location == nil)
        #expect(empty.locationProblem == "georss:point has no coordinates")
        let short = try onlyEntry("illformed/geo/georss_polygon_insufficient_coords.xml")
        #expect(short.location == nil)
        #expect(short.locationProblem == "georss:polygon needs at least 4 positions, found 3")
        // A bare gml:Point in the entry is still read (feedparser does too).
        #expect(
            try onlyEntry("illformed/geo/gml_point.xml").location?.geometry == .point(Point(x: 31.1732, y: 36.9382)))
    }

    @Test func dates() throws {
        let (_, pub) = try read("wellformed/rss/item_pubDate_map_updated_parsed.xml")
        #expect(pub[0].published == FeedDate.iso8601("2004-01-01T19:48:21Z"))
        #expect(pub[0].published?.timeIntervalSince1970 == 1_072_986_501)
        let (_, dc) = try read("wellformed/rss/item_dc_date_parsed.xml")
        #expect(dc[0].updated?.timeIntervalSince1970 == 1_072_865_695)
        let (channel, _) = try read("wellformed/rss/channel_dc_date.xml")
        #expect(channel.updated?.timeIntervalSince1970 == 1_072_865_695)
        #expect(channel.format == "rss")
        let (channelPub, _) = try read("wellformed/rss/channel_pubDate_map_updated_parsed.xml")
        #expect(channelPub.published?.timeIntervalSince1970 == 1_072_986_501)
        #expect(FeedDate.rfc822("Mon, 23 Nov 2026 10:00:00 +0100")?.timeIntervalSince1970 == 1_795_424_400)
        #expect(FeedDate.rfc822("30 Feb 2026 10:00:00 GMT") == nil)
    }

    @Test func everyConformanceFileReadsWithoutError() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.root.path).filter { $0.hasSuffix(".xml") }
        #expect(files.count == 19)
        for file in files { _ = try read(file) }
    }

    @Test func malformedXMLIsAnErrorWithALine() {
        let data = Data("<rss version=\"2.0\"><channel>\n<item><title>x</item></channel></rss>".utf8)
        #expect(throws: FormatError.self) { try GeoRSSFeedReader.entries(data: data, source: "broken.xml") }
        do {
            _ = try GeoRSSFeedReader.entries(data: data, source: "broken.xml")
        } catch let error as FormatError {
            #expect(error.description.hasPrefix("broken.xml: line 2"))
        } catch { Issue.record("\(error)") }
    }
}
