import Foundation
import GeoqCore
import GeoqXML

/// Reads KML 2.2 (as exported by Google My Maps or Google Earth) with libxml2's streaming
/// reader (``XMLStream``).
///
/// - Every `<Placemark>` at any depth (inside `Document`/`Folder`) is a feature. Its `<name>` is
///   the feature name (unless ``ReadOptions/nameField`` says otherwise); its `id` attribute is the
///   default id, else the 1-based Placemark number.
/// - Properties: `name`, `description` and `styleUrl` as strings, then every
///   `ExtendedData/Data[@name]/value` and `ExtendedData/SchemaData/SimpleData[@name]` as strings
///   (these override the three built-in ones on a name clash). Styles are otherwise ignored.
/// - Geometries: `Point`, `LineString`, `LinearRing` (as a polygon without holes), `Polygon`
///   (`outerBoundaryIs` + `innerBoundaryIs`, each a `LinearRing`), and `MultiGeometry`, nested or
///   not. `coordinates` hold `lon,lat[,alt]` tuples separated by whitespace; altitude is dropped.
///   Rings must be closed (first tuple repeated at the end), as KML requires: an open ring is an
///   error naming its line.
/// - A MultiGeometry of polygons gives a MultiPolygon, of lines a MultiLineString, of points a
///   MultiPoint. **Mixed** MultiGeometries keep the polygons (else the lines) and drop the rest,
///   with a line in ``FeatureCollection/warnings``: the engine's queries are about areas.
/// - Unsupported geometries (`Model`, `gx:Track`, `gx:MultiTrack`) are ignored with a warning.
/// - KML is always WGS84 longitude/latitude: ``FeatureCollection/crs`` is EPSG:4326.
///
/// Errors name the 1-based line and the Placemark.
public struct KMLReader: FeatureFileReader {
    public var options: ReadOptions

    public init(options: ReadOptions = ReadOptions()) {
        self.options = options
    }

    /// Reads KML held in memory; `source` names it in errors.
    public func read(data: Data, source: String) throws(FormatError) -> FeatureCollection {
        let handler = KMLParseHandler(source: source, options: options)
        try XMLElementParsing.run(handler, data: data, expected: "KML")
        if let nameField = options.nameField, !handler.features.isEmpty,
            !handler.features.contains(where: { $0.properties[nameField] != nil })
        {
            let keys = Set(handler.features.flatMap { $0.properties.keys })
            throw FeatureNaming(options: options).unknownNameFieldError(file: source, available: keys.sorted())
        }
        var warnings = handler.warnings
        if handler.placemarkCount == 0 { warnings.append("no Placemark found") }
        return FeatureCollection(features: handler.features, crs: .epsg(4326), source: source, warnings: warnings)
    }
}

/// The streaming state machine behind ``KMLReader``. Not Sendable: one instance per parse, on
/// the calling thread.
final class KMLParseHandler: XMLParseOutcome {
    let source: String
    let options: ReadOptions
    let naming: FeatureNaming

    private(set) var features: [Feature] = []
    private(set) var warnings: [String] = []
    private(set) var failure: FormatError?
    private(set) var placemarkCount = 0
    private(set) var sawRoot = false

    /// Local names (namespace prefix removed) of the open elements.
    private var stack: [String] = []
    private var text = ""
    private var textLine = 0
    private var placemark: PlacemarkState?

    init(source: String, options: ReadOptions) {
        self.source = source
        self.options = options
        self.naming = FeatureNaming(options: options)
    }

    // MARK: State

    private struct PolygonState {
        var index: Int
        var line: Int
        var outer: Ring?
        var holes: [Ring] = []
        var inInner = false
        var inOuter = false
    }

    private struct PlacemarkState {
        var number: Int
        var line: Int
        var nativeID: String?
        var name: String?
        var builtIn: [String: PropertyValue] = [:]
        var extended: [String: PropertyValue] = [:]
        var dataName: String?
        var points: [Point] = []
        var lines: [[Point]] = []
        var polygons: [Polygon] = []
        var polygon: PolygonState?
        var polygonCount = 0
        var ringLine = 0
        var ignored: [String] = []
        var label: String {
            if let name, !name.isEmpty { return "Placemark \(number) '\(name)'" }
            return "Placemark \(number)"
        }
    }

    // MARK: XMLStreamHandler

    var stopsReading: Bool { failure != nil }

    func startElement(_ tag: XMLStartTag) {
        let name = tag.localName
        let attributeDict = tag.attributes
        if !sawRoot {
            sawRoot = true
            if name != "kml" {
                fail(
                    FormatError(
                        .unsupportedFormat, file: source, line: tag.line,
                        message: "not a KML document: the root element is <\(tag.qualifiedName)>, expected <kml>"))
                return
            }
        }
        stack.append(name)
        text = ""
        textLine = tag.line

        if name == "Placemark" {
            placemarkCount += 1
            placemark = PlacemarkState(number: placemarkCount, line: tag.line, nativeID: attributeDict["id"])
            return
        }
        guard var pm = placemark else { return }
        switch name {
        case "Data", "SimpleData":
            pm.dataName = attributeDict["name"]
        case "Polygon":
            pm.polygon = PolygonState(index: pm.polygonCount, line: tag.line)
            pm.polygonCount += 1
        case "outerBoundaryIs":
            pm.polygon?.inOuter = true
        case "innerBoundaryIs":
            pm.polygon?.inInner = true
        case "LinearRing":
            pm.ringLine = tag.line
        case "Model", "Track", "MultiTrack":
            pm.ignored.append(tag.qualifiedName)
        default:
            break
        }
        placemark = pm
    }

    func characters(_ string: String) {
        text += string
    }

    func endElement() {
        guard let name = stack.popLast() else { return }
        let parent = stack.last ?? ""
        guard var pm = placemark else { return }

        switch name {
        case "Placemark":
            placemark = nil
            finish(pm)
            return
        case "name" where parent == "Placemark":
            pm.name = text.trimmingWhitespace()
            pm.builtIn["name"] = .string(pm.name ?? "")
        case "description" where parent == "Placemark":
            pm.builtIn["description"] = .string(text.trimmingWhitespace())
        case "styleUrl" where parent == "Placemark":
            pm.builtIn["styleUrl"] = .string(text.trimmingWhitespace())
        case "value" where parent == "Data":
            if let key = pm.dataName { pm.extended[key] = .string(text.trimmingWhitespace()) }
        case "SimpleData":
            if let key = pm.dataName { pm.extended[key] = .string(text.trimmingWhitespace()) }
        case "coordinates":
            guard let points = coordinates(text, line: textLine, pm: pm, parent: parent) else { return }
            if !attach(points, parent: parent, to: &pm) { return }
        case "outerBoundaryIs":
            pm.polygon?.inOuter = false
        case "innerBoundaryIs":
            pm.polygon?.inInner = false
        case "Polygon":
            if let poly = pm.polygon {
                guard let outer = poly.outer else {
                    fail(
                        FormatError(
                            .invalidGeometry, file: source, line: poly.line, featureNumber: pm.number,
                            featureID: pm.nativeID, fieldPath: "Polygon[\(poly.index)]",
                            message: "\(pm.label): Polygon has no outerBoundaryIs/LinearRing/coordinates"))
                    return
                }
                pm.polygons.append(Polygon(shell: outer, holes: poly.holes))
                pm.polygon = nil
            }
        default:
            break
        }
        placemark = pm
    }

    // MARK: Geometry

    /// Positions of a `<coordinates>` text, or nil after reporting an error.
    private func coordinates(
        _ text: String, line: Int, pm: PlacemarkState, parent: String
    ) -> [Point]? {
        // Tokens separated by whitespace, with the line each starts on; tokens joined by a comma
        // on either side ("1.5, 42.8") belong to one tuple.
        var tokens: [(text: String, line: Int)] = []
        var current = ""
        var currentLine = line
        var lineNow = line
        var previousCR = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                if scalar == "\n" {
                    if !previousCR { lineNow += 1 }
                } else if scalar == "\r" {
                    lineNow += 1
                }
                previousCR = scalar == "\r"
                if !current.isEmpty {
                    tokens.append((current, currentLine))
                    current = ""
                }
                continue
            }
            previousCR = false
            if current.isEmpty { currentLine = lineNow }
            current.unicodeScalars.append(scalar)
        }
        if !current.isEmpty { tokens.append((current, currentLine)) }
        var tuples: [(text: String, line: Int)] = []
        for token in tokens {
            if let last = tuples.last, last.text.hasSuffix(",") || token.text.hasPrefix(",") {
                tuples[tuples.count - 1].text += token.text
            } else {
                tuples.append(token)
            }
        }

        var points: [Point] = []
        points.reserveCapacity(tuples.count)
        for (i, tuple) in tuples.enumerated() {
            let parts = tuple.text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count >= 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else {
                fail(
                    FormatError(
                        .invalidGeometry, file: source, line: tuple.line, featureNumber: pm.number,
                        featureID: pm.nativeID, fieldPath: "\(parent).coordinates[\(i)]",
                        message:
                            "\(pm.label): expected lon,lat[,alt] in <coordinates>, found '\(JSONValue.truncated(tuple.text, 40))'"
                    ))
                return nil
            }
            points.append(Point(x: x, y: y))
        }
        return points
    }

    /// Adds the positions of a `<coordinates>` to the geometry being built; false after an error.
    private func attach(_ points: [Point], parent: String, to pm: inout PlacemarkState) -> Bool {
        func geometryError(_ path: String, _ line: Int, _ message: String) -> Bool {
            fail(
                FormatError(
                    .invalidGeometry, file: source, line: line, featureNumber: pm.number, featureID: pm.nativeID,
                    fieldPath: path, message: "\(pm.label): \(message)"))
            return false
        }
        switch parent {
        case "Point":
            guard points.count == 1 else {
                return geometryError(
                    "Point.coordinates", textLine, "a Point needs exactly one lon,lat tuple, found \(points.count)")
            }
            pm.points.append(points[0])
        case "LineString":
            guard points.count >= 2 else {
                return geometryError(
                    "LineString.coordinates", textLine, "a LineString needs at least 2 positions, found \(points.count)"
                )
            }
            pm.lines.append(points)
        case "LinearRing":
            let role: String
            let path: String
            if let poly = pm.polygon {
                if poly.inInner {
                    role = "innerBoundaryIs \(poly.holes.count + 1) LinearRing"
                    path = "Polygon[\(poly.index)].innerBoundaryIs[\(poly.holes.count)].LinearRing"
                } else {
                    role = "outerBoundaryIs LinearRing"
                    path = "Polygon[\(poly.index)].outerBoundaryIs.LinearRing"
                }
            } else {
                role = "LinearRing"
                path = "LinearRing"
            }
            let ring: Ring
            do {
                ring = try Ring(points)
            } catch {
                return geometryError(path, pm.ringLine, RingMessages.describe(error, role: role))
            }
            if var poly = pm.polygon {
                if poly.inInner {
                    poly.holes.append(ring)
                } else if poly.outer == nil {
                    poly.outer = ring
                } else {
                    return geometryError(path, pm.ringLine, "Polygon has more than one outerBoundaryIs")
                }
                pm.polygon = poly
            } else {
                pm.polygons.append(Polygon(shell: ring))
            }
        default:
            warnings.append("\(pm.label): <coordinates> inside <\(parent)> ignored")
        }
        return true
    }

    private func finish(_ pm: PlacemarkState) {
        for element in pm.ignored {
            warnings.append("\(pm.label): unsupported geometry <\(element)> ignored")
        }
        var properties = pm.builtIn
        for (k, v) in pm.extended { properties[k] = v }
        guard let id = naming.id(properties: properties, nativeID: pm.nativeID, number: pm.number) else {
            fail(
                naming.missingIDError(file: source, line: pm.line, featureNumber: pm.number, properties: properties))
            return
        }
        let kinds = [
            (pm.polygons.count, "polygon"), (pm.lines.count, "line"), (pm.points.count, "point"),
        ].filter { $0.0 > 0 }
        let geometry: Geometry
        if !pm.polygons.isEmpty {
            geometry = pm.polygons.count == 1 ? .polygon(pm.polygons[0]) : .multiPolygon(MultiPolygon(pm.polygons))
        } else if !pm.lines.isEmpty {
            geometry = pm.lines.count == 1 ? .lineString(pm.lines[0]) : .multiLineString(pm.lines)
        } else if !pm.points.isEmpty {
            geometry = pm.points.count == 1 ? .point(pm.points[0]) : .multiPoint(pm.points)
        } else {
            if options.skipFeaturesWithoutGeometry {
                warnings.append("\(pm.label) (id \(id)): no geometry; skipped")
                return
            }
            fail(
                FormatError(
                    .missingGeometry, file: source, line: pm.line, featureNumber: pm.number, featureID: id,
                    message:
                        "\(pm.label) has no Point, LineString, LinearRing or Polygon"
                ))
            return
        }
        if kinds.count > 1 {
            let described = kinds.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: ", ")
            warnings.append("\(pm.label) (id \(id)): MultiGeometry mixes \(described); kept the \(kinds[0].1)s only")
        }
        features.append(
            Feature(
                id: id, name: naming.name(properties: properties, nativeName: pm.name), geometry: geometry,
                properties: properties))
    }

    private func fail(_ error: FormatError) {
        if failure == nil { failure = error }
    }

    // MARK: Helpers

    static func localName(_ qualified: String) -> String {
        if let colon = qualified.lastIndex(of: ":") { return String(qualified[qualified.index(after: colon)...]) }
        return qualified
    }
}
