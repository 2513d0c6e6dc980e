import Foundation

/// Reads a trace file of either format: GPX when the name ends in `.gpx` or the text starts
/// with `<`, CSV otherwise.
public enum TripTraceReader {
    /// Reads `url`; `source` names the file in messages (defaults to its path).
    public static func read(contentsOf url: URL, source: String? = nil) throws(TripReadError) -> TripTrace {
        let name = source ?? url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw TripReadError(.fileMissing, file: name, message: "no such file")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw TripReadError(.fileMissing, file: name, message: "cannot be read (\(error.localizedDescription))")
        }
        return try read(data, source: name, isGPX: url.pathExtension.lowercased() == "gpx" ? true : nil)
    }

    /// Reads `data`; `isGPX` nil means sniff the first non-blank byte.
    public static func read(_ data: Data, source: String, isGPX: Bool? = nil) throws(TripReadError) -> TripTrace {
        let gpx =
            isGPX
            ?? (data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } == UInt8(ascii: "<"))
        if gpx { return try TripGPXReader().read(data, source: source) }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TripReadError(
                .invalidSyntax, file: source, message: "not UTF-8 text (expected CSV time,lat,lon[,accuracy] or GPX)")
        }
        return try TripCSVReader().read(text, source: source)
    }
}
