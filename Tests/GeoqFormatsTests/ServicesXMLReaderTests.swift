import Foundation
import GeoqCore
import GeoqFormats
import Testing

@Suite("ServicesXMLReader")
struct ServicesXMLReaderTests {
    func read(_ text: String, options: ReadOptions = ReadOptions()) throws(FormatError) -> FeatureCollection {
        try ServicesXMLReader(options: options).read(data: Data(text.utf8), source: "anuncios.xml")
    }

    @Test func services() throws {
        let c = try read(ServicesXMLFixtures.services)
        #expect(c.crs == .epsg(4326))
        #expect(c.warnings.isEmpty)
        #expect(c.features.map(\.id) == ["3", "8", "5"])
        #expect(
            c.features.map(\.name) == [
                "Restaurante de prueba Na Jordana", "Tienda de prueba del Mercat", "Horchatería de prueba",
            ])
        #expect(
            c.features.map { $0.properties["categoria"] } == [
                .string("Restaurantes"), .string("Tiendas"), .string("Restaurantes"),
            ])
        // A dot or a decimal comma: "39,4734" is 39.4734.
        #expect(
            c.features.map(\.geometry) == [
                .point(Point(latitude: 39.4809, longitude: -0.3803)),
                .point(Point(latitude: 39.4734, longitude: -0.3783)),
                .point(Point(latitude: 39.46985, longitude: -0.37632)),
            ])
        #expect(
            c.features[1].properties == [
                "localeName": .string("Tienda de prueba del Mercat"), "direccion": .string("Plaça del Mercat, 1"),
                "latitud": .string("39,4734"), "longitud": .string("-0,3783"),
                "tipo": .string("Indumentaria valenciana"), "telefono": .null, "texto": .null,
                "categoria": .string("Tiendas"),
            ])
        #expect(c.features[0].properties["texto"] == .string("Paella & all i pebre; menú fallero"))
        #expect(c.features[0].properties["telefono"] == .string("960 000 003"))
        #expect(c.features[2].properties["direccion"] == .string("Plaça de l'Ajuntament, 2"))
        #expect(c.features[2].properties["texto"] == .string("Buñuelos de calabaza"))
    }

    @Test func optionsSelectIDAndName() throws {
        let c = try read(ServicesXMLFixtures.services, options: ReadOptions(idField: "direccion", nameField: "tipo"))
        #expect(c.features.first?.id == "Carrer de Na Jordana, 10")
        #expect(c.features.map(\.name) == ["Arrocería", "Indumentaria valenciana", "Horchatería"])
        let error = formatError { () throws(FormatError) in
            try read(ServicesXMLFixtures.services, options: ReadOptions(idField: "telefono"))
        }
        expect(error, code: .missingField, mentions: ["feature 2", "'telefono'", "empty or null"])
    }

    @Test func emptyDocument() throws {
        let c = try read("<?xml version=\"1.0\"?>\n<Anuncios>\n</Anuncios>\n")
        #expect(c.features.isEmpty)
        #expect(c.warnings == ["<Anuncios> holds no services"])
    }

    /// The service opens on line 4; `<latitud>` is on line 7, `<longitud>` on line 8 (or 7 alone).
    @Test(
        arguments: [
            ("139,6917", "35,6895", "latitud", 7, ["latitude 139.6917 is outside [-90, 90]", "looks swapped"]),
            ("39,47", "-200", "longitud", 8, ["longitude -200 is outside [-180, 180]"]),
            ("39°28'", "-0,38", "latitud", 7, ["latitude '39°28'' is not a number"]),
            ("39,47", "-0,37,6", "longitud", 8, ["longitude '-0,37,6' is not a number"]),
            ("1.234,5", "-0.38", "latitud", 7, ["latitude '1.234,5' is not a number"]),
        ])
    func invalidCoordinates(_ latitud: String, _ longitud: String, _ field: String, _ line: Int, _ mentions: [String]) {
        let error = formatError { () throws(FormatError) in
            try read(ServicesXMLFixtures.single(latitud: latitud, longitud: longitud))
        }
        expect(
            error, code: .invalidGeometry,
            mentions: [
                "anuncios.xml", "line \(line)", "feature 1 (id 7)", field,
                "service 1 <Restaurantes id=\"7\"> 'Bar de prueba'",
            ] + mentions)
    }

    @Test func missingCoordinates() throws {
        let none = ServicesXMLFixtures.single(latitud: nil, longitud: nil)
        let error = formatError { () throws(FormatError) in try read(none) }
        expect(
            error, code: .missingGeometry,
            mentions: [
                "anuncios.xml: line 4, feature 1 (id 7)", "has no <latitud> or <longitud>",
            ])
        let half = formatError { () throws(FormatError) in
            try read(ServicesXMLFixtures.single(latitud: "39,47", longitud: " "))
        }
        expect(half, code: .missingGeometry, mentions: ["has no <longitud> (or it is empty)"])

        let skipped = try read(none, options: ReadOptions(skipFeaturesWithoutGeometry: true))
        #expect(skipped.features.isEmpty)
        #expect(
            skipped.warnings == [
                "service 1 <Restaurantes id=\"7\"> 'Bar de prueba' (id 7), line 4: has no <latitud> or <longitud> (or it is empty); skipped"
            ])
    }

    @Test func badDocuments() {
        // `<tipo>` on line 5 is closed by `</Restaurantes>`.
        let malformed = formatError { () throws(FormatError) in
            try read(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <Anuncios>
                  <Restaurantes id="3">
                    <latitud>39.4809</latitud><longitud>-0.3803</longitud>
                    <tipo>Bar
                  </Restaurantes>
                </Anuncios>
                """)
        }
        expect(malformed, code: .invalidSyntax, mentions: ["anuncios.xml: line 6", "malformed XML"])
        let feed = formatError { () throws(FormatError) in try read(FallasFeedFixtures.empty) }
        expect(feed, code: .unsupportedFormat, mentions: ["root element is <feed>", "expected <Anuncios>"])
    }

    @Test func detectedByContent() throws {
        let xml = try writeTemporaryFile(ServicesXMLFixtures.services, name: "anuncios.xml")
        #expect(try FormatDetector.format(ofFileAt: xml) == .servicesXML)
        #expect(try readFeatures(at: xml).features.map(\.id) == ["3", "8", "5"])
        // Only the content counts for .xml, .atom and .rss.
        let rss = try writeTemporaryFile(ServicesXMLFixtures.services, name: "anuncios.rss")
        #expect(try FormatDetector.format(ofFileAt: rss) == .servicesXML)
        #expect(FormatDetector.format(of: xml) == nil)
    }
}
