/// A falla's competition section, from the code the city's open data uses, as words and in
/// competition order (SPEC §2).
///
/// Monuments: `E` Especial, then `1A` Primera A, `1B` Primera B, `2A` Segunda A … `8C` Octava C
/// (by number, then letter), then `FC` Fuera de concurso. Children's fallas: `IE` Infantil
/// Especial, then `1` … `22` (Infantil Primera … Infantil Vigesimosegunda), then `FC`.
/// Unknown codes keep their text and sort after the known ones, before `FC`.
public struct FallaCategory: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The code as published (`E`, `1A`, `IE`, `14`, `FC`).
    public let code: String
    /// The section in words (`Especial`, `Primera A`, `Infantil Especial`).
    public let words: String
    /// Position in competition order: lower is higher in the competition.
    public let rank: Int

    /// Reads a section code. `infantil` says it comes from the children's fallas, whose
    /// numeric sections have no letter.
    public init(code raw: String, infantil: Bool = false) {
        let code = raw.trimmingSpaces.uppercased()
        self.code = code
        switch code {
        case "E":
            (words, rank) = ("Especial", 0)
        case "IE":
            (words, rank) = ("Infantil Especial", 0)
        case "FC":
            (words, rank) = ("Fuera de concurso", 10_000)
        default:
            let digits = code.prefix { $0.isNumber }
            let letter = code.dropFirst(digits.count)
            if let n = Int(digits), (1...Self.ordinals.count).contains(n), letter.count <= 1,
                letter.allSatisfy({ ("A"..."Z").contains($0) })
            {
                let ordinal = Self.ordinals[n - 1]
                let prefix = infantil ? "Infantil " : ""
                words = prefix + ordinal + (letter.isEmpty ? "" : " \(letter)")
                rank = n * 100 + (letter.first.map { Int($0.asciiValue! - 64) } ?? 0)
            } else {
                (words, rank) = (raw.trimmingSpaces, 9_000)
            }
        }
    }

    /// Feminine Spanish ordinals ("sección" is feminine), as the sections are named.
    static let ordinals = [
        "Primera", "Segunda", "Tercera", "Cuarta", "Quinta", "Sexta", "Séptima", "Octava", "Novena", "Décima",
        "Undécima", "Duodécima", "Decimotercera", "Decimocuarta", "Decimoquinta", "Decimosexta", "Decimoséptima",
        "Decimoctava", "Decimonovena", "Vigésima", "Vigesimoprimera", "Vigesimosegunda",
    ]

    public static func < (a: FallaCategory, b: FallaCategory) -> Bool {
        a.rank != b.rank ? a.rank < b.rank : a.code < b.code
    }

    public var description: String { words }

    /// Map pin colour of the original app: Especial red, Primera A green, others default.
    /// (The municipal falla's purple pin depends on the falla, not the section: see
    /// ``FallaCategory/pinColour(isMunicipal:)``.)
    public func pinColour(isMunicipal: Bool = false) -> String {
        if isMunicipal { return "purple" }
        switch code {
        case "E": return "red"
        case "1A": return "green"
        default: return "default"
        }
    }

    /// Whether a user's filter (`Especial`, `especial`, `E`, `Primera A`, `1A`) names this section.
    public func matches(_ filter: String) -> Bool {
        let f = filter.trimmingSpaces.lowercased()
        return f == code.lowercased() || f == words.lowercased()
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}
