import GeoqTestSupport
import Testing

@testable import GeoqIncidents

/// The byte-level cleaning against the character-based general path
/// (``IncidentDescription/cleanByCharacters(_:)``, tags, entities and sub-headings found on
/// characters with Foundation's search): the same string for every description, whichever path
/// cleans it.
@Suite struct DescriptionBytesTests {
    /// The second implementation, for a description or none.
    static func reference(_ html: String?) -> String {
        html.map(IncidentDescription.cleanByCharacters) ?? IncidentDescription.empty
    }

    static let tags = [
        "<p>", "</p>", "<P class=\"x\">", "<br>", "<BR/>", "<br />", "<//br>", "<strong>", "</strong>", "<div>", "<li>",
        "<table>", "<h2>", "<span>", "<br²>", "<é>", "<brá>", "<ScRiPt>x<p>y</sCrIpT>", "<style>p{}</style >",
        "<script>", "</script>", "</SCRIPT >", "<!-- nota -->", "<!-->", "<!--", "-->", "<", ">", "< p>", "<>", "</>",
        "<b>Tramo comprendido</b>",
    ]
    static let references = [
        "&amp;", "&lt;", "&gt;", "&lt;b&gt;", "&nbsp;", "&aacute;", "&Iacute;", "&iacute;", "&oacute;", "&Oacute;",
        "&ntilde;", "&euro;", "&rsquo;", "&hellip;", "&ndash;", "&#233;", "&#xE9;", "&#XED;", "&#237;", "&#x2019;",
        "&#8364;", "&#13;", "&#x0D;", "&#769;", "&#x301;", "&#0;", "&#+65;", "&#-0;", "&#x;", "&#;", "&#55296;",
        "&#x110000;", "&#x142;", "&#383;", "&#x3A9;", "&#x2028;", "&unknown;", "&", "&amp", "&verylongname;",
        "&amp;amp;", "& ;", "&a<b>;", "&#x41", "&Aacute;&Eacute;",
    ]
    static let words = [
        "Corte", "por obras", "Calle Cádiz", "Peñaflor", "ÑANDÚ", "×", "ß", "ÿ", "µ", "ª", "²", "entre A y B", "1", "á",
        "Á", "í", "Í", "ó", "Ó", "“cita”", "–", "…", "€", "‼", "ł", "ſ", "Ω", "e\u{301}", "\u{00A0}", "\r\n", "\r",
        "\t", " ", "  ", "\n", "\n\n", ":", " : ", "x", "xx", "\u{200B}", "\u{2028}",
    ]
    static let headings = [
        "Tramo comprendido", "TRAMO COMPRENDIDO", "tramo Comprendido", "Desvío", "DESVÍO", "DesvÍo", "desvio",
        "Desv&iacute;o", "DESV&Iacute;O", "Finalización", "FINALIZACIÓN", "finalizacion", "Finalizaci&oacute;n",
        "Observaciones", "OBSERVACIONES", "Observacionesx", "xDesvío", "desvíos", "Tramo comprendidobservaciones",
        "DesvíoDesvío", "Desvío:Desvío", "Observaciones:", "Tramo comprendido :",
    ]

    @Test func seededDescriptionsCleanAsTheCharacterRulesDid() {
        var rng = SeededRandom(seed: 18)
        var byBytes = 0
        let kinds = [Self.tags, Self.references, Self.words, Self.words, Self.headings]
        for n in 0..<8000 {
            let html = (0..<Int.random(in: 0...14, using: &rng)).map { _ in
                kinds.randomElement(using: &rng)!.randomElement(using: &rng)!
            }.joined()
            if DescriptionBytes.clean(html) != nil { byBytes += 1 }
            #expect(
                IncidentDescription.clean(html) == Self.reference(html), "\(n): \(html.debugDescription)")
        }
        // Both paths are exercised: the byte path on most descriptions, the character path on the rest.
        #expect(byBytes > 2000)
        #expect(byBytes < 7000)
    }

    @Test func everyCoveredScalarNextToSubheadingsTagsAndReferences() {
        let covered = (0..<0x2100).compactMap { DescriptionBytes.isCovered(UInt32($0)) ? Unicode.Scalar($0) : nil }
        for scalar in covered {
            let c = String(Character(scalar))
            for html in [
                "\(c)Desvío\(c)x \(c)observaciones\(c): y\(c)", "a\(c)<p>\(c)TRAMO COMPRENDIDO\(c)<br\(c)>\(c)",
                "&\(c);&amp\(c);\(c)&#\(scalar.value);\(c)&#x\(String(scalar.value, radix: 16));Finalizaci&oacute;n",
                "<!--\(c)-->\(c)<script\(c)>\(c)</script\(c)>\(c)", "\(c) \t \(c)\n\n \(c)",
            ] {
                #expect(DescriptionBytes.clean(html) != nil)
                #expect(IncidentDescription.clean(html) == Self.reference(html), "\(html.debugDescription)")
            }
        }
    }

    @Test func emptyDescriptionsReadSinDescripcion() {
        for html in ["", " ", "<p></p>", "&nbsp;\n\t", "<!-- -->", "<script>x</script>", "\u{00A0}"] {
            #expect(IncidentDescription.clean(html) == "Sin descripción")
            #expect(Self.reference(html) == "Sin descripción")
        }
        #expect(IncidentDescription.clean(nil) == "Sin descripción")
    }
}
