/// The coordinate reference system a file declares. The readers never reproject: they report
/// what the file says so that the caller can hand ``projString`` to PROJ.
///
/// `nil` (no declaration) is not the same as WGS84: a GeoJSON file without a `crs` member is
/// WGS84 by RFC 7946, but real files break that rule (Pamplona's PV installations are EPSG:25830
/// metres without a `crs` member); see ``FeatureCollection/coordinatesLookProjected()``.
public enum CRSDeclaration: Hashable, Sendable {
    /// An EPSG code, e.g. 25830 for ETRS89 / UTM zone 30N.
    case epsg(Int)
    /// Any other declaration, kept verbatim: a WKT string from a .prj file, or a name such as
    /// `urn:ogc:def:crs:OGC:1.3:CRS84`.
    case definition(String)

    /// WGS84 longitude/latitude (or latitude/longitude, which only differ in axis order; geoq's
    /// points are always x = longitude): EPSG:4326, OGC CRS84 in its URN/URL spellings, and WKT
    /// whose top-level system is a GEOGCS on the WGS 84 datum (Natural Earth's `GCS_WGS_1984`).
    ///
    /// EPSG:4258 (ETRS89) is *not* WGS84 here: it is a distinct datum, even though the two agree
    /// to within a metre in Europe, and PROJ will transform between them as a no-op or near it.
    public var isWGS84Geographic: Bool {
        switch self {
        case .epsg(let code):
            return code == 4326
        case .definition(let text):
            if let code = CRSDeclaration.epsgCode(inName: text) { return code == 4326 }
            if CRSDeclaration.isCRS84Name(text) { return true }
            return WKTSummary(text)?.isWGS84Geographic ?? false
        }
    }

    /// A string PROJ accepts: `EPSG:25830`, `OGC:CRS84`, or the WKT itself.
    public var projString: String {
        switch self {
        case .epsg(let code):
            return "EPSG:\(code)"
        case .definition(let text):
            if let code = CRSDeclaration.epsgCode(inName: text) { return "EPSG:\(code)" }
            if CRSDeclaration.isCRS84Name(text) { return "OGC:CRS84" }
            return text
        }
    }

    /// The EPSG code, when declared directly, in a URN, or as the top-level
    /// `AUTHORITY["EPSG","25830"]` (WKT1) / `ID["EPSG",25830]` (WKT2) of a WKT definition.
    public var epsgCode: Int? {
        switch self {
        case .epsg(let code):
            return code
        case .definition(let text):
            if let code = CRSDeclaration.epsgCode(inName: text) { return code }
            return WKTSummary(text)?.topLevelEPSG
        }
    }

    /// A human-readable name: `EPSG:25830`, `OGC:CRS84`, or the WKT's top-level name
    /// (`ETRS89 / UTM zone 30N`).
    public var displayName: String {
        switch self {
        case .epsg(let code): return "EPSG:\(code)"
        case .definition(let text):
            if let code = CRSDeclaration.epsgCode(inName: text) { return "EPSG:\(code)" }
            if CRSDeclaration.isCRS84Name(text) { return "OGC:CRS84" }
            if let name = WKTSummary(text)?.name { return name }
            return text
        }
    }

    /// Interprets a CRS name as found in a GeoJSON `crs` member or on a command line:
    /// `EPSG:25830`, `urn:ogc:def:crs:EPSG::25830`, `urn:ogc:def:crs:EPSG:6.6:4326`,
    /// `http://www.opengis.net/def/crs/EPSG/0/4326` become ``epsg(_:)``; anything else (CRS84
    /// names included) is kept as ``definition(_:)``. Returns nil for an empty string.
    public init?(name: String) {
        let trimmed = name.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        if let code = CRSDeclaration.epsgCode(inName: trimmed) {
            self = .epsg(code)
        } else {
            self = .definition(trimmed)
        }
    }

    /// Interprets the text of a shapefile's .prj (WKT). WKT that is plainly WGS84 geographic
    /// becomes `.epsg(4326)`; anything else is kept verbatim as ``definition(_:)`` (use
    /// ``epsgCode`` to get, say, 25830 out of an ETRS89 / UTM 30N definition).
    public init?(prj text: String) {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        if let summary = WKTSummary(trimmed), summary.isWGS84Geographic {
            self = .epsg(4326)
        } else {
            self = .definition(trimmed)
        }
    }

    // MARK: - Names

    /// `EPSG:n`, `urn:ogc:def:crs:EPSG:[version]:n`, `http(s)://www.opengis.net/def/crs/EPSG/0/n`.
    static func epsgCode(inName text: String) -> Int? {
        let lower = text.trimmingWhitespace().lowercased()
        let candidates: [String]
        if lower.hasPrefix("epsg:") {
            candidates = [String(lower.dropFirst(5))]
        } else if lower.hasPrefix("urn:ogc:def:crs:epsg:") {
            // urn:ogc:def:crs:EPSG::4326 or urn:ogc:def:crs:EPSG:6.6:4326: the code is last.
            candidates = [String(lower.split(separator: ":", omittingEmptySubsequences: false).last ?? "")]
        } else if lower.hasPrefix("http://www.opengis.net/def/crs/epsg/")
            || lower.hasPrefix("https://www.opengis.net/def/crs/epsg/")
        {
            candidates = [String(lower.split(separator: "/").last ?? "")]
        } else {
            return nil
        }
        guard let digits = candidates.first, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let code = Int(digits), code > 0
        else { return nil }
        return code
    }

    static func isCRS84Name(_ text: String) -> Bool {
        let lower = text.trimmingWhitespace().lowercased()
        return [
            "crs84", "ogc:crs84", "urn:ogc:def:crs:ogc:1.3:crs84", "urn:ogc:def:crs:ogc::crs84",
            "urn:ogc:def:crs:ogc:2:84", "http://www.opengis.net/def/crs/ogc/1.3/crs84",
            "https://www.opengis.net/def/crs/ogc/1.3/crs84",
        ].contains(lower)
    }
}

extension CRSDeclaration: CustomStringConvertible {
    public var description: String { displayName }
}
