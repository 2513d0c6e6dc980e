import Foundation
import GeoqIncidents
import GeoqTestSupport
import Testing

/// Sub-headings are found in Latin-1 descriptions without Foundation; Foundation's
/// case-insensitive search is the second implementation they are checked against.
@Suite struct IncidentDescriptionSearchTests {
    /// SPEC §3's rule with Foundation's search, as the cleaning did it before.
    static func reference(_ text: String) -> String {
        var text = text
        for heading in IncidentDescription.subheadings {
            var out = ""
            var rest = Substring(text)
            while let range = rest.range(of: heading, options: .caseInsensitive) {
                let before = range.lowerBound > rest.startIndex ? rest[rest.index(before: range.lowerBound)] : " "
                let after = range.upperBound < rest.endIndex ? rest[range.upperBound] : " "
                guard !before.isLetter, !after.isLetter else {
                    out += rest[..<range.upperBound]
                    rest = rest[range.upperBound...]
                    continue
                }
                out += rest[..<range.lowerBound] + "\n\(heading):\n"
                var tail = rest[range.upperBound...]
                while let first = tail.first, first == " " || first == ":" { tail = tail.dropFirst() }
                rest = tail
            }
            text = out + rest
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        }.filter { !$0.isEmpty }
        return lines.isEmpty ? IncidentDescription.empty : lines.joined(separator: "\n")
    }

    @Test func seededLatin1DescriptionsAgreeWithFoundation() {
        var rng = SeededRandom(seed: 3)
        let pieces = [
            "tramo comprendido", "TRAMO COMPRENDIDO", "Tramo Comprendido", "desvío", "DESVÍO", "DesvÍo", "desvio",
            "Finalización", "FINALIZACIÓN", "observaciones", "Observacionesx", "xDesvío", "desvíos", ":", " : ",
            " ", "\n", "\t", "\r\n", " e\u{301}", "Calle Cádiz", "Peñaflor", "ÑANDÚ", "entre A y B", "ó", "Ó", "1",
        ]
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 1...9, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
                .joined()
            #expect(IncidentDescription.clean(text) == Self.reference(text), "\(text)")
        }
    }
}
