/// Options shared by every reader.
public struct ReadOptions: Hashable, Sendable {
    /// The attribute holding each feature's id (a GeoJSON property, KML ExtendedData name, DBF
    /// field or CSV column). When nil: the GeoJSON feature `id` member or KML Placemark `id`
    /// attribute if present, else the 1-based feature number as text. When set, a feature whose
    /// value is missing or null is an error (``FormatError/Code/missingField``).
    public var idField: String?
    /// The attribute holding each feature's display name. When nil: the KML `<name>`; no name
    /// for the other formats. A feature without the attribute gets no name; a field absent from
    /// the whole file is an error (most likely a typo).
    public var nameField: String?
    /// What to do with a feature that has no geometry (GeoJSON `"geometry": null`, a shapefile
    /// Null shape, a CSV row with empty geometry columns, a Placemark without geometry):
    /// false (the default) makes it an error naming the feature; true skips it and adds a line to
    /// ``FeatureCollection/warnings``.
    public var skipFeaturesWithoutGeometry: Bool
    /// Forces the text encoding of a shapefile's .dbf, overriding its .cpg and the guess.
    public var dbfEncoding: DBFEncoding?

    public init(
        idField: String? = nil, nameField: String? = nil, skipFeaturesWithoutGeometry: Bool = false,
        dbfEncoding: DBFEncoding? = nil
    ) {
        self.idField = idField
        self.nameField = nameField
        self.skipFeaturesWithoutGeometry = skipFeaturesWithoutGeometry
        self.dbfEncoding = dbfEncoding
    }
}

/// Text encodings found in dBase files.
public enum DBFEncoding: String, Hashable, Sendable, CaseIterable {
    case utf8 = "UTF-8"
    /// ISO-8859-1: every byte is the Unicode scalar of the same value.
    case latin1 = "ISO-8859-1"
    /// Windows-1252: Latin-1 with printable characters (€, ‘, ’, Œ...) in 0x80–0x9F.
    case windows1252 = "windows-1252"

    /// Interprets the content of a .cpg file (`UTF-8`, `ISO-8859-1`, `latin1`, `1252`, ...).
    public init?(cpg text: String) {
        let key = String(
            text.trimmingWhitespace().lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" && $0 != " " }.map(
                Character.init))
        switch key {
        case "utf8", "65001": self = .utf8
        case "iso88591", "88591", "latin1", "l1", "28591": self = .latin1
        case "1252", "cp1252", "windows1252", "ansi1252", "win1252": self = .windows1252
        default: return nil
        }
    }
}
