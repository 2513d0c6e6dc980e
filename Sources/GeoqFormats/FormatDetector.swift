import Foundation

/// The file formats geoq reads.
public enum FileFormat: String, Hashable, Sendable, CaseIterable {
    case geoJSON = "GeoJSON"
    case kml = "KML"
    case shapefile = "Shapefile"
    case opendatasoftCSV = "opendatasoft CSV"
    /// An Atom or RSS feed with GeoRSS points (``GeoRSSPointReader``).
    case geoRSSFeed = "GeoRSS feed"
    /// The `<Anuncios>` services XML of the Fallas app (``ServicesXMLReader``).
    case servicesXML = "services XML"

    /// The extensions (lower case, no dot) that may hold each format. `.xml` is shared: only the
    /// content tells which (see ``FormatDetector/format(ofFileAt:)``).
    public var fileExtensions: [String] {
        switch self {
        case .geoJSON: ["geojson", "json"]
        case .kml: ["kml"]
        case .shapefile: ["shp"]
        case .opendatasoftCSV: ["csv"]
        case .geoRSSFeed: ["atom", "rss", "xml"]
        case .servicesXML: ["xml"]
        }
    }
}

/// Chooses a reader by file extension and, for XML, by the root element.
public enum FormatDetector {
    /// Extensions whose content is sniffed: XML whose root element decides the format.
    public static let sniffedExtensions: Set<String> = ["xml", "atom", "rss"]

    /// How many bytes ``format(ofFileAt:)`` reads to find the root element.
    public static let sniffLength = 4096

    /// The format for `url`'s extension (case-insensitive), or nil when the extension selects no
    /// format or several (`.xml`: use ``format(ofFileAt:)``).
    public static func format(of url: URL) -> FileFormat? {
        let ext = url.pathExtension.lowercased()
        let candidates = FileFormat.allCases.filter { $0.fileExtensions.contains(ext) }
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// The format of the file at `url`: by extension, except `.xml`, `.atom` and `.rss`, whose
    /// first ``sniffLength`` bytes are read and whose root element decides: `<feed>` or `<rss>`
    /// -> ``FileFormat/geoRSSFeed``, `<Anuncios>` -> ``FileFormat/servicesXML``, `<kml>` ->
    /// ``FileFormat/kml``; any other root -> nil. A missing or unreadable file is an error only
    /// when its content must be sniffed.
    public static func format(ofFileAt url: URL) throws(FormatError) -> FileFormat? {
        let ext = url.pathExtension.lowercased()
        guard sniffedExtensions.contains(ext) else { return format(of: url) }
        return format(rootElement: try rootElement(ofFileAt: url))
    }

    /// The format whose documents have the root element `name` (local name, prefix ignored).
    static func format(rootElement name: String?) -> FileFormat? {
        switch name.map(KMLParseHandler.localName) {
        case "feed", "rss": .geoRSSFeed
        case "Anuncios": .servicesXML
        case "kml": .kml
        default: nil
        }
    }

    /// The name of the root element (with its prefix, if any) of the XML file at `url`, found in
    /// its first ``sniffLength`` bytes, or nil when none is found there.
    public static func rootElement(ofFileAt url: URL) throws(FormatError) -> String? {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FormatError(.fileNotFound, file: path, message: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw FormatError(.unreadableFile, file: path, message: "is a directory, not a file")
        }
        let head: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            head = try handle.read(upToCount: sniffLength) ?? Data()
        } catch {
            throw FormatError(.unreadableFile, file: path, message: "cannot be read: \(error.localizedDescription)")
        }
        return rootElement(in: [UInt8](head))
    }

    /// The root element's name in the start of an XML document: skips a byte-order mark,
    /// whitespace, the XML declaration, processing instructions, comments and a DOCTYPE.
    static func rootElement(in bytes: [UInt8]) -> String? {
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        func skip(past terminator: [UInt8]) -> Bool {
            var j = i
            while j + terminator.count <= bytes.count {
                if Array(bytes[j..<j + terminator.count]) == terminator {
                    i = j + terminator.count
                    return true
                }
                j += 1
            }
            return false
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                i += 1
                continue
            }
            guard b == UInt8(ascii: "<"), i + 1 < bytes.count else { return nil }
            let rest = bytes[(i + 1)...]
            if rest.starts(with: Array("?".utf8)) {
                guard skip(past: Array("?>".utf8)) else { return nil }
            } else if rest.starts(with: Array("!--".utf8)) {
                guard skip(past: Array("-->".utf8)) else { return nil }
            } else if rest.starts(with: Array("!".utf8)) {
                // <!DOCTYPE ...>, without an internal subset holding '>'.
                guard skip(past: Array(">".utf8)) else { return nil }
            } else {
                var name: [UInt8] = []
                var j = i + 1
                while j < bytes.count {
                    let c = bytes[j]
                    if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ">")
                        || c == UInt8(ascii: "/")
                    {
                        break
                    }
                    name.append(c)
                    j += 1
                }
                guard j < bytes.count, !name.isEmpty else { return nil }
                return String(decoding: name, as: UTF8.self)
            }
        }
        return nil
    }
}

/// Reads `url` with the reader its extension selects: `.json`/`.geojson` GeoJSON, `.kml` KML,
/// `.shp` shapefile (with its .dbf, .prj, .cpg beside it), `.csv` opendatasoft CSV; `.xml`,
/// `.atom` and `.rss` by their root element: `<feed>`/`<rss>` a GeoRSS feed, `<Anuncios>` the
/// services XML, `<kml>` KML.
public func readFeatures(at url: URL, options: ReadOptions = ReadOptions()) throws(FormatError) -> FeatureCollection {
    switch try FormatDetector.format(ofFileAt: url) {
    case .geoJSON: return try GeoJSONReader(options: options).read(at: url)
    case .kml: return try KMLReader(options: options).read(at: url)
    case .shapefile: return try ShapefileReader(options: options).read(at: url)
    case .opendatasoftCSV: return try OpendatasoftCSVReader(options: options).read(at: url)
    case .geoRSSFeed: return try GeoRSSPointReader(options: options).read(at: url)
    case .servicesXML: return try ServicesXMLReader(options: options).read(at: url)
    case nil:
        let ext = url.pathExtension.lowercased()
        if FormatDetector.sniffedExtensions.contains(ext) {
            let root = try FormatDetector.rootElement(ofFileAt: url)
            let found = root.map { "the root element is <\($0)>" } ?? "no root element in its first bytes"
            throw FormatError(
                .unsupportedFormat, file: url.path,
                message:
                    "unsupported XML document: \(found); supported: <feed> or <rss> (GeoRSS feed), "
                    + "<Anuncios> (services XML), <kml> (KML)")
        }
        var message = "unsupported file type"
        message += ext.isEmpty ? " (no extension)" : " '.\(ext)'"
        message +=
            "; supported: .geojson/.json (GeoJSON), .kml (KML), .shp (shapefile), .csv (opendatasoft CSV), "
            + ".xml/.atom/.rss (GeoRSS feed or services XML)"
        switch ext {
        case "kmz": message += "; a .kmz is a zip: unzip it and read the doc.kml inside"
        case "zip": message += "; unzip it first"
        case "dbf", "shx", "prj", "cpg": message += "; give the .shp of the shapefile"
        default: break
        }
        throw FormatError(.unsupportedFormat, file: url.path, message: message)
    }
}
