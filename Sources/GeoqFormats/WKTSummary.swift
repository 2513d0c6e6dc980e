/// The little the readers need to know about a WKT string: the top-level keyword and name, the
/// first datum's name, and the top-level EPSG authority. Not a WKT parser: a bracket-depth scan
/// over the bytes, tolerant of both WKT1 (`PROJCS[...]`) and WKT2 (`PROJCRS[...]`).
struct WKTSummary: Sendable {
    /// `PROJCS`, `GEOGCS`, `PROJCRS`, `GEOGCRS`, ... (upper-cased).
    var keyword: String
    /// The top-level name, e.g. `ETRS89 / UTM zone 30N` or `GCS_WGS_1984`.
    var name: String?
    /// The first `DATUM[...]` name, e.g. `D_WGS_1984`.
    var datumName: String?
    /// The last `AUTHORITY["EPSG","n"]` / `ID["EPSG",n]` directly inside the top-level bracket.
    var topLevelEPSG: Int?

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count, bytes[i].isASCIIWhitespace { i += 1 }
        let start = i
        while i < bytes.count, bytes[i].isASCIIWordCharacter { i += 1 }
        guard i > start, i < bytes.count, bytes[i].isOpeningBracket else { return nil }
        keyword = String(decoding: bytes[start..<i], as: UTF8.self).uppercased()
        name = WKTSummary.quotedString(in: bytes, after: i)
        datumName = WKTSummary.datumName(in: bytes)
        topLevelEPSG = WKTSummary.topLevelAuthority(in: bytes, openingBracket: i)
    }

    var isGeographic: Bool { ["GEOGCS", "GEOGCRS", "GEODCRS", "GEOGRAPHICCRS"].contains(keyword) }

    /// A geographic system on the WGS 84 datum (by EPSG code if given, else by datum name).
    var isWGS84Geographic: Bool {
        guard isGeographic else { return false }
        if let topLevelEPSG { return topLevelEPSG == 4326 }
        let wgs84Names: Set<String> = ["wgs84", "wgs1984", "dwgs1984", "gcswgs1984", "worldgeodeticsystem1984"]
        let candidates = [datumName, name].compactMap { $0 }.map(WKTSummary.squashed)
        return candidates.contains { wgs84Names.contains($0) }
    }

    /// Lower-cased ASCII letters and digits only: `D_WGS_1984` -> `dwgs1984`.
    static func squashed(_ s: String) -> String {
        String(
            String.UnicodeScalarView(
                s.lowercased().unicodeScalars.filter {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))
                }))
    }

    /// The first double-quoted string after `index`, unless a `,` or `]` comes first.
    private static func quotedString(in bytes: [UInt8], after index: Int) -> String? {
        var i = index + 1
        while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
            if bytes[i] == UInt8(ascii: ",") || bytes[i].isClosingBracket { return nil }
            i += 1
        }
        guard i < bytes.count else { return nil }
        let start = i + 1
        var j = start
        while j < bytes.count, bytes[j] != UInt8(ascii: "\"") { j += 1 }
        guard j < bytes.count else { return nil }
        return String(decoding: bytes[start..<j], as: UTF8.self)
    }

    private static func datumName(in bytes: [UInt8]) -> String? {
        let needle = Array("DATUM".utf8)
        var i = 0
        while i + needle.count < bytes.count {
            var match = true
            for k in 0..<needle.count where bytes[i + k] & 0xDF != needle[k] {
                match = false
                break
            }
            let before = i == 0 ? UInt8(ascii: " ") : bytes[i - 1]
            if match, !before.isASCIIWordCharacter, bytes[i + needle.count].isOpeningBracket {
                return quotedString(in: bytes, after: i + needle.count)
            }
            i += 1
        }
        return nil
    }

    private static func topLevelAuthority(in bytes: [UInt8], openingBracket: Int) -> Int? {
        var depth = 0
        var inQuote = false
        var result: Int?
        var tokenStart: Int?
        var i = openingBracket
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                inQuote.toggle()
                tokenStart = nil
            } else if !inQuote {
                if c.isOpeningBracket {
                    if depth == 1, let s = tokenStart {
                        let word = String(decoding: bytes[s..<i], as: UTF8.self).uppercased()
                        if word == "AUTHORITY" || word == "ID" {
                            result = authorityCode(in: bytes, from: i + 1) ?? result
                        }
                    }
                    depth += 1
                    tokenStart = nil
                } else if c.isClosingBracket {
                    depth -= 1
                    if depth <= 0 { break }
                    tokenStart = nil
                } else if c.isASCIIWordCharacter {
                    if tokenStart == nil { tokenStart = i }
                } else {
                    tokenStart = nil
                }
            }
            i += 1
        }
        return result
    }

    /// `"EPSG","25830"]` or `"EPSG",25830]` -> 25830.
    private static func authorityCode(in bytes: [UInt8], from index: Int) -> Int? {
        var end = index
        while end < bytes.count, !bytes[end].isClosingBracket { end += 1 }
        let body = String(decoding: bytes[index..<end], as: UTF8.self)
        let parts = body.split(separator: ",").map { part in
            String(part.unicodeScalars.filter { $0 != "\"" && !$0.properties.isWhitespace }.map(Character.init))
        }
        guard parts.count >= 2, parts[0].uppercased() == "EPSG" else { return nil }
        return Int(parts[1])
    }
}

extension UInt8 {
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
    var isASCIIWordCharacter: Bool {
        (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) || (self >= 0x30 && self <= 0x39)
            || self == 0x5F
    }
    var isOpeningBracket: Bool { self == UInt8(ascii: "[") || self == UInt8(ascii: "(") }
    var isClosingBracket: Bool { self == UInt8(ascii: "]") || self == UInt8(ascii: ")") }
}
