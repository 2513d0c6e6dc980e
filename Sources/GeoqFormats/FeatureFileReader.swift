import Foundation

/// A reader of a single-file format (GeoJSON, KML, opendatasoft CSV): it parses bytes held in
/// memory, and reading a file is loading it and naming it in errors. Shapefiles, which come as
/// several files, have their own ``ShapefileReader``.
public protocol FeatureFileReader: Sendable {
    var options: ReadOptions { get }

    /// Reads data held in memory; `source` names it in errors.
    func read(data: Data, source: String) throws(FormatError) -> FeatureCollection
}

extension FeatureFileReader {
    /// Reads the file at `url`.
    public func read(at url: URL) throws(FormatError) -> FeatureCollection {
        try read(data: FileLoading.data(at: url), source: url.path)
    }
}
