import Foundation

/// The file formats geoq reads.
public enum FileFormat: String, Hashable, Sendable, CaseIterable {
    case geoJSON = "GeoJSON"
    case kml = "KML"
    case shapefile = "Shapefile"
    case opendatasoftCSV = "opendatasoft CSV"

    /// The extensions (lower case, no dot) that select each format.
    public var fileExtensions: [String] {
        switch self {
        case .geoJSON: ["geojson", "json"]
        case .kml: ["kml"]
        case .shapefile: ["shp"]
        case .opendatasoftCSV: ["csv"]
        }
    }
}

/// Chooses a reader by file extension.
public enum FormatDetector {
    /// The format for `url`'s extension (case-insensitive), or nil.
    public static func format(of url: URL) -> FileFormat? {
        let ext = url.pathExtension.lowercased()
        return FileFormat.allCases.first { $0.fileExtensions.contains(ext) }
    }
}

/// Reads `url` with the reader its extension selects: `.json`/`.geojson` GeoJSON, `.kml` KML,
/// `.shp` shapefile (with its .dbf, .prj, .cpg beside it), `.csv` opendatasoft CSV.
public func readFeatures(at url: URL, options: ReadOptions = ReadOptions()) throws(FormatError) -> FeatureCollection {
    switch FormatDetector.format(of: url) {
    case .geoJSON: return try GeoJSONReader(options: options).read(at: url)
    case .kml: return try KMLReader(options: options).read(at: url)
    case .shapefile: return try ShapefileReader(options: options).read(at: url)
    case .opendatasoftCSV: return try OpendatasoftCSVReader(options: options).read(at: url)
    case nil:
        let ext = url.pathExtension.lowercased()
        var message = "unsupported file type"
        message += ext.isEmpty ? " (no extension)" : " '.\(ext)'"
        message += "; supported: .geojson/.json (GeoJSON), .kml (KML), .shp (shapefile), .csv (opendatasoft CSV)"
        switch ext {
        case "kmz": message += "; a .kmz is a zip: unzip it and read the doc.kml inside"
        case "zip": message += "; unzip it first"
        case "dbf", "shx", "prj", "cpg": message += "; give the .shp of the shapefile"
        default: break
        }
        throw FormatError(.unsupportedFormat, file: url.path, message: message)
    }
}
