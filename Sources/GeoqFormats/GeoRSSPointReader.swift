import Foundation
import GeoqCore

/// Reads any Atom feed (and, leniently, an RSS 2.0 feed) whose entries carry a GeoRSS Simple or
/// W3C Basic Geo point, as point features with the entries' own elements as properties; the
/// feed of the original Valencia Fallas app is one:
/// `<entry><id>9</id><title>Na Jordana</title><georss:point>39.481 -0.380</georss:point>
/// <falleraMayor>…</falleraMayor>…</entry>`.
///
/// - **Latitude first.** `<georss:point>` (http://www.georss.org/georss) holds exactly two
///   numbers, `latitude longitude`, separated by whitespace. W3C Basic Geo (`<geo:lat>` and
///   `<geo:long>`, directly in the entry or inside `<geo:Point>`) is accepted when the entry has
///   no `georss:point`. Latitude must be in [-90, 90], longitude in [-180, 180]; when only the
///   exchanged numbers are in range the error says the order looks swapped. Elements are
///   recognised as the feed reader recognises them (``FeedVocabulary``): GeoRSS's `point`,
///   `where`, `line`, `polygon` and `box`, W3C Basic Geo's `lat`, `long` or `lon`, by their
///   namespace whatever the prefix, else by the usual prefix.
/// - **One feature per `<entry>`** (Atom) or `<item>` (RSS), in document order; the feed's own
///   elements are ignored. Geometry: ``Geometry/point(_:)``.
/// - **Id**: the `<id>` text (RSS: `<guid>` when there is no `<id>`), else the 1-based entry
///   number, unless ``ReadOptions/idField`` names an element. **Name**: the `<title>`, unless
///   ``ReadOptions/nameField`` names an element.
/// - **Properties**: every other child element of the entry that has no child elements
///   (`falleraMayor`, `presidente`, `artistaMayor`, `anoCreacion`, `calle`, `cat2011`, `cat2012`,
///   `presupuesto`, Atom's `updated`, `summary`, ...) as a trimmed string, keyed by its name as
///   written (`dc:date` keeps its prefix); an empty element is ``PropertyValue/null``. An empty
///   `<link href="…"/>` gives its `href`. A repeated element keeps its first value. Elements with
///   children (Atom `author`) are not properties.
/// - **Errors** (``FormatError``) name the 1-based line and entry, with the entry's id and title:
///   malformed XML (``FormatError/Code/invalidSyntax``), a bad point
///   (``FormatError/Code/invalidGeometry``), an entry without a point, or with an empty one
///   (``FormatError/Code/missingGeometry``, or skipped with a warning under
///   ``ReadOptions/skipFeaturesWithoutGeometry``). A root other than `<feed>` or `<rss>` is
///   ``FormatError/Code/unsupportedFormat``.
/// - A feed without entries is valid: zero features, and a warning.
/// - ``FeatureCollection/crs`` is EPSG:4326, as GeoRSS Simple requires.
public struct GeoRSSPointReader: FeatureFileReader {
    public var options: ReadOptions

    public init(options: ReadOptions = ReadOptions()) {
        self.options = options
    }

    /// Reads a feed held in memory; `source` names it in errors.
    public func read(data: Data, source: String) throws(FormatError) -> FeatureCollection {
        try GeoRSSParseHandler(source: source, options: options).collection(
            data, expected: "an Atom or RSS feed", noItems: "the feed has no entries")
    }
}

/// The streaming state machine behind ``GeoRSSPointReader``.
final class GeoRSSParseHandler: PointFeatureParsing {
    private var entry: EntryState?

    private struct EntryState {
        /// "entry" (Atom) or "item" (RSS).
        var kind: String
        var number: Int
        var line: Int
        /// Index of the entry's frame in the element stack.
        var depth: Int
        var id: String?
        var guid: String?
        var title: String?
        var properties: [String: PropertyValue] = [:]
        /// `<georss:point>` texts with their lines and qualified names.
        var points: [(text: String, line: Int, element: String)] = []
        var latitude: (text: String, line: Int, element: String)?
        var longitude: (text: String, line: Int, element: String)?
        /// Other GeoRSS geometries found (`georss:line`, `georss:where`...), which are not read.
        var otherGeometries: [String] = []

        var label: String {
            var s = "\(kind) \(number)"
            if let title, !title.isEmpty { s += " '\(title)'" }
            return s
        }
        var nativeID: String? {
            if let id, !id.isEmpty { return id }
            if let guid, !guid.isEmpty { return guid }
            return nil
        }
    }

    override func didOpen(_ frame: Frame, attributes: [String: String]) {
        if stack.count == 1 {
            if frame.localName != "feed" && frame.localName != "rss" {
                fail(
                    FormatError(
                        .unsupportedFormat, file: source, line: frame.line,
                        message:
                            "not an Atom or RSS feed: the root element is <\(frame.qualifiedName)>, expected <feed> or <rss>"
                    ))
            }
            return
        }
        if entry == nil, frame.localName == "entry" || frame.localName == "item" {
            itemCount += 1
            entry = EntryState(kind: frame.localName, number: itemCount, line: frame.line, depth: stack.count - 1)
            return
        }
        guard var e = entry else { return }
        // An empty <link href="..."/> is read from its attribute.
        if stack.count == e.depth + 2, frame.localName == "link", let href = attributes["href"],
            e.properties[frame.qualifiedName] == nil
        {
            e.properties[frame.qualifiedName] = .string(href.trimmingWhitespace())
            entry = e
        }
    }

    override func didClose(_ frame: Frame) {
        guard var e = entry else { return }
        if stack.count == e.depth {
            entry = nil
            finish(e)
            return
        }
        let text = frame.text.trimmingWhitespace()
        switch (frame.vocabulary, frame.localName) {
        case (.georss, "point"):
            e.points.append((text, frame.line, frame.qualifiedName))
        case (.w3cGeo, "lat"):
            if e.latitude == nil { e.latitude = (text, frame.line, frame.qualifiedName) }
        case (.w3cGeo, "long"), (.w3cGeo, "lon"):
            if e.longitude == nil { e.longitude = (text, frame.line, frame.qualifiedName) }
        case (.georss, "line"), (.georss, "polygon"), (.georss, "box"), (.georss, "where"):
            e.otherGeometries.append(frame.qualifiedName)
        default:
            // Only the entry's direct, simple children are properties.
            guard stack.count == e.depth + 1, !frame.hasChildElements else { break }
            let value: PropertyValue = text.isEmpty ? .null : .string(text)
            switch frame.qualifiedName {
            case "id":
                if e.id == nil { e.id = text }
            case "title":
                if e.title == nil { e.title = text }
            default:
                if frame.qualifiedName == "guid", e.guid == nil { e.guid = text }
                if e.properties[frame.qualifiedName] == nil { e.properties[frame.qualifiedName] = value }
            }
        }
        entry = e
    }

    // MARK: Finishing an entry

    private func finish(_ e: EntryState) {
        // Naming sees the id and title too, so idField "title" or nameField "id" work.
        var lookup = e.properties
        if let id = e.id { lookup["id"] = id.isEmpty ? .null : .string(id) }
        if let title = e.title { lookup["title"] = title.isEmpty ? .null : .string(title) }
        elementNames.formUnion(lookup.keys)
        guard let id = naming.id(properties: lookup, nativeID: e.nativeID, number: e.number) else {
            fail(naming.missingIDError(file: source, line: e.line, featureNumber: e.number, properties: lookup))
            return
        }
        let nativeName = (e.title?.isEmpty ?? true) ? nil : e.title

        func geometryError(_ line: Int, _ element: String, _ message: String) {
            fail(
                FormatError(
                    .invalidGeometry, file: source, line: line, featureNumber: e.number, featureID: id,
                    fieldPath: element, message: "\(e.label): \(message)"))
        }

        var point: Point?
        if e.points.count > 1 {
            let p = e.points[1]
            geometryError(p.line, p.element, "has \(e.points.count) <\(p.element)> elements; expected exactly one")
            return
        }
        if let p = e.points.first, !p.text.isEmpty {
            let numbers = p.text.split(whereSeparator: { $0.isWhitespace })
            guard numbers.count == 2 else {
                var message =
                    "<\(p.element)> must hold exactly two numbers, 'latitude longitude' separated by a space; found "
                    + "\(numbers.count): '\(JSONValue.truncated(p.text, 60))'"
                if numbers.count == 1, p.text.contains(",") {
                    message += " (GeoRSS separates the numbers with a space, not a comma)"
                }
                geometryError(p.line, p.element, message)
                return
            }
            guard let latitude = GeographicPosition.decimal(String(numbers[0])) else {
                geometryError(p.line, p.element, "latitude '\(numbers[0])' is not a number")
                return
            }
            guard let longitude = GeographicPosition.decimal(String(numbers[1])) else {
                geometryError(p.line, p.element, "longitude '\(numbers[1])' is not a number")
                return
            }
            if let problem = GeographicPosition.problem(
                latitude: latitude, longitude: longitude, order: "GeoRSS writes latitude first ('lat lon')")
            {
                geometryError(p.line, p.element, "'\(p.text)': \(problem)")
                return
            }
            point = Point(latitude: latitude, longitude: longitude)
        } else if e.points.isEmpty, !(e.latitude?.text ?? "").isEmpty || !(e.longitude?.text ?? "").isEmpty {
            guard let lat = e.latitude, let lon = e.longitude, !lat.text.isEmpty, !lon.text.isEmpty else {
                let present = [e.latitude, e.longitude].compactMap { $0 }.first { !$0.text.isEmpty }!
                geometryError(
                    present.line, present.element,
                    "W3C Basic Geo needs both <geo:lat> and <geo:long> with a number each; found only <\(present.element)>"
                )
                return
            }
            guard let latitude = GeographicPosition.decimal(lat.text) else {
                geometryError(lat.line, lat.element, "latitude '\(lat.text)' is not a number")
                return
            }
            guard let longitude = GeographicPosition.decimal(lon.text) else {
                geometryError(lon.line, lon.element, "longitude '\(lon.text)' is not a number")
                return
            }
            if let problem = GeographicPosition.problem(
                latitude: latitude, longitude: longitude, order: "<\(lat.element)> holds the latitude")
            {
                geometryError(lat.line, lat.element, problem)
                return
            }
            point = Point(latitude: latitude, longitude: longitude)
        }

        guard let point else {
            var why = e.points.isEmpty ? "has no <georss:point>" : "has an empty <\(e.points[0].element)>"
            if !e.otherGeometries.isEmpty {
                why +=
                    " (only "
                    + e.otherGeometries.map { "<\($0)>" }.joined(separator: ", ")
                    + ", which geoq does not read: it reads points)"
            }
            if options.skipFeaturesWithoutGeometry {
                warnings.append("\(e.label) (id \(id)), line \(e.line): \(why); skipped")
                return
            }
            fail(
                FormatError(
                    .missingGeometry, file: source, line: e.line, featureNumber: e.number, featureID: id,
                    message: "\(e.label) \(why)"))
            return
        }
        features.append(
            Feature(
                id: id, name: naming.name(properties: lookup, nativeName: nativeName), geometry: .point(point),
                properties: e.properties))
    }
}
