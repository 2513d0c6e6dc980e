import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads a GPX 1.1 (or 1.0) trace with a SAX parser.
///
/// - Each `<trkseg>` of each `<trk>` is one segment of `<trkpt lat=".." lon="..">`. A file
///   with no track points is read from its routes instead, each `<rte>` one segment of
///   `<rtept>`; when a file has both, its routes are plans and are ignored. Waypoints (`<wpt>`)
///   are places, not a path: ignored.
/// - A point's `<time>` (ISO 8601) and `<ele>` are read; an `<accuracy>` element inside the
///   point (some apps write one in `<extensions>`) is read as the accuracy in metres. GPX's own
///   `<hdop>` is dimensionless and not used.
/// - Element prefixes are ignored (`gpx:trkpt` is `trkpt`); the root must be `gpx`.
/// - Errors name the line of the point; times going backwards are an error.
public struct TripGPXReader: Sendable {
    public init() {}

    public func read(_ data: Data, source: String) throws(TripReadError) -> TripTrace {
        guard !data.isEmpty else {
            throw TripReadError(
                .invalidSyntax, file: source, line: 1, message: "file is empty (expected a GPX document)")
        }
        let handler = GPXHandler(source: source)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = handler
        let finished = parser.parse()
        if let failure = handler.failure { throw failure }
        if let xml = handler.xmlError {
            throw TripReadError(
                .invalidSyntax, file: source, line: max(xml.line, 1),
                message: "malformed XML at column \(xml.column): \(xml.message)")
        }
        if !finished {
            let message = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown error"
            throw TripReadError(
                .invalidSyntax, file: source, line: max(parser.lineNumber, 1),
                message: "malformed XML at column \(parser.columnNumber): \(message)")
        }
        guard handler.sawRoot else {
            throw TripReadError(
                .invalidSyntax, file: source, line: 1, message: "no XML element (expected a GPX document)")
        }
        // A file with a track is measured by its track: its routes are plans, not the drive.
        let tracks = TripTrace(segments: handler.trackSegments)
        let trace = tracks.fixCount > 0 ? tracks : TripTrace(segments: handler.routeSegments)
        guard trace.fixCount > 0 else {
            throw TripReadError(
                .noFixes, file: source,
                message: "no track points (<trkpt>) or route points (<rtept>); waypoints alone are not a path")
        }
        return trace
    }
}

/// The SAX delegate: one per parse, on the calling thread.
private final class GPXHandler: NSObject, XMLParserDelegate {
    struct OpenPoint {
        var line: Int
        var latitude: String
        var longitude: String
        var time: String?
        var elevation: String?
        var accuracy: String?
        var isRoute: Bool
    }

    let source: String
    var values: TraceValues
    var trackSegments: [[TripFix]] = []
    var routeSegments: [[TripFix]] = []
    /// Route points are checked for time order among themselves, apart from track points.
    var routeValues: TraceValues
    var failure: TripReadError?
    var sawRoot = false
    /// The first syntax error libxml2 reported (it may recover and let `parse()` succeed).
    var xmlError: (line: Int, column: Int, message: String)?
    private var current: OpenPoint?
    private var text = ""
    /// Names of the open elements, the root first (for messages).
    private var open: [String] = []

    init(source: String) {
        self.source = source
        values = TraceValues(file: source)
        routeValues = TraceValues(file: source)
    }

    private static func local(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    private func fail(_ error: TripReadError, _ parser: XMLParser) {
        if failure == nil { failure = error }
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        let name = Self.local(elementName)
        open.append(elementName)
        if !sawRoot {
            sawRoot = true
            guard name == "gpx" else {
                fail(
                    TripReadError(
                        .invalidSyntax, file: source, line: parser.lineNumber,
                        message: "root element is <\(elementName)>, expected <gpx>"), parser)
                return
            }
        }
        text = ""
        switch name {
        case "trkseg": trackSegments.append([])
        case "rte": routeSegments.append([])
        case "trkpt", "rtept":
            let isRoute = name == "rtept"
            if isRoute ? routeSegments.isEmpty : trackSegments.isEmpty {
                if isRoute { routeSegments.append([]) } else { trackSegments.append([]) }
            }
            current = OpenPoint(
                line: parser.lineNumber, latitude: attributes["lat"] ?? "", longitude: attributes["lon"] ?? "",
                isRoute: isRoute)
        default: break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard xmlError == nil, failure == nil else { return }
        var message = Self.describe(parseError)
        if !open.isEmpty { message += " (open elements: " + open.map { "<\($0)>" }.joined(separator: " ") + ")" }
        xmlError = (parser.lineNumber, parser.columnNumber, message)
        parser.abortParsing()
    }

    /// libxml2's error codes, as GeoqFormats' XML readers word them.
    static func describe(_ error: any Error) -> String {
        switch (error as NSError).code {
        case 4: "the document is empty"
        case 5: "the document ends before all elements are closed (truncated file?)"
        case 9: "invalid character"
        case 23, 26, 27: "undefined or malformed entity (write a literal & as &amp;)"
        case 38, 39, 40, 41: "malformed attribute (attribute values must be quoted)"
        case 64, 65: "whitespace required (or text before the <?xml ...?> declaration)"
        case 68: "malformed name"
        case 73: "'>' expected"
        case 76: "closing tag does not match the open element"
        case let code: "XML parser error \(code)"
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        guard failure == nil else { return }
        if !open.isEmpty { open.removeLast() }
        let name = Self.local(elementName)
        if current != nil {
            switch name {
            case "time": current?.time = text
            case "ele": current?.elevation = text
            case "accuracy": current?.accuracy = text
            case "trkpt", "rtept": finishPoint(parser)
            default: break
            }
        }
        text = ""
    }

    private func finishPoint(_ parser: XMLParser) {
        guard let p = current else { return }
        current = nil
        do {
            let point = try values.point(latitude: p.latitude, longitude: p.longitude, line: p.line)
            let time = try p.time.flatMap { t throws(TripReadError) in try values.time(t, line: p.line) }
            let elevation = try values.number(p.elevation ?? "", line: p.line, field: "ele", required: false)
            let accuracy = try values.number(p.accuracy ?? "", line: p.line, field: "accuracy", required: false)
            let fix = TripFix(time: time, point: point, accuracy: accuracy, elevation: elevation)
            if p.isRoute {
                try routeValues.checkOrder(time, line: p.line)
                routeSegments[routeSegments.count - 1].append(fix)
            } else {
                try values.checkOrder(time, line: p.line)
                trackSegments[trackSegments.count - 1].append(fix)
            }
        } catch {
            fail(error, parser)
        }
    }
}
