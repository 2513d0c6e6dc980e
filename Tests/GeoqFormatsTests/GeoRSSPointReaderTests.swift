import Foundation
import GeoqCore
import GeoqFormats
import GeoqTestSupport
import Testing

@Suite("GeoRSSPointReader")
struct GeoRSSPointReaderTests {
    func read(_ text: String, options: ReadOptions = ReadOptions()) throws(FormatError) -> FeatureCollection {
        try GeoRSSPointReader(options: options).read(data: Data(text.utf8), source: "fallas.atom")
    }

    /// The positions of the five fixture fallas, from `geo_point_2d` ("lat, lon") of
    /// valencia/falles-fallas.csv, worked out with python3 while writing this test:
    /// `float(s) for s in row['geo_point_2d'].split(',')` for Id. Falla 9, 12, 1, 14, 10.
    static let csvPositions: [(id: String, latitude: Double, longitude: Double)] = [
        ("9", 39.48100415750942, -0.3801110157807973),  // Na Jordana
        ("12", 39.46643844060057, -0.37951592968874953),  // Convent de Jerusalem-Matemàtic Marzal
        ("1", 39.47344194460842, -0.37826449710814597),  // Mercat Central, pl.
        ("14", 39.46583740509804, -0.36841578049487167),  // Almirall Cadarso-Comte d'Altea
        ("10", 39.471170302164104, -0.37958649271837014),  // Avinguda de l'Oest
    ]

    /// A file or folder of the shared data; the test fails, naming it, when it is not there.
    static func sharedFile(_ relativePath: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let url = TestData.url(relativePath)
        try #require(
            FileManager.default.fileExists(atPath: url.path),
            "shared data file \(url.path) is missing (set GEOQ_DATA_DIR to the shared data directory)",
            sourceLocation: sourceLocation)
        return url
    }

    @Test func realFallas() throws {
        let c = try read(FallasFeedFixtures.fallas)
        #expect(c.crs == .epsg(4326))
        #expect(c.warnings.isEmpty)
        #expect(c.features.map(\.id) == ["9", "12", "1", "14", "10"])
        #expect(
            c.features.map(\.name) == [
                "Na Jordana", "Convent de Jerusalem-Matemàtic Marzal", "Mercat Central, pl.",
                "Almirall Cadarso-Comte d'Altea", "Avinguda de l'Oest",
            ])
        // Latitude first in the feed; Point(latitude:longitude:) in the features.
        for (feature, expected) in zip(c.features, Self.csvPositions) {
            #expect(feature.id == expected.id)
            #expect(feature.geometry == .point(Point(latitude: expected.latitude, longitude: expected.longitude)))
        }

        let naJordana = c.features[0]
        #expect(
            naJordana.properties == [
                "falleraMayor": .string("María Sánchez Martínez"), "presidente": .string("Pere Borrego Pitarch"),
                "artistaMayor": .string("MARIO GUAL DEL OLMO"), "lema": .string("MEMORIES DE L'AVENIR"),
                "anoCreacion": .string("1884"), "calle": .string("Na Jordana"), "seccion": .string("E"),
                "cat2011": .null, "cat2012": .null, "presupuesto": .null,
            ])
        // Numeric character references and &amp; are decoded; empty and blank elements are null.
        #expect(c.features[1].properties["falleraMayor"] == .string("Mariam Armiñana Herencia"))
        #expect(c.features[2].properties["artistaMayor"] == .null)
        #expect(c.features[2].properties["anoCreacion"] == .null)
        #expect(c.features[3].properties["calle"] == .string("Almirall Cadarso-Comte d'Altea"))
        #expect(c.features[4].properties["lema"] == .string("Jeckyll & miss Hide"))
        #expect(c.features[4].properties["link"] == .string("https://www.example.org/fallas/10"))
    }

    /// The same positions, read from the CSV at test time.
    @Test func positionsEqualTheCSV() throws {
        let url = try Self.sharedFile("valencia/falles-fallas.csv")
        let text = try String(contentsOf: url, encoding: .utf8)
        var csv: [String: Point] = [:]
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            guard fields.count > 2, let last = fields.last else { continue }
            let numbers = last.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == 2 else { continue }
            csv[String(fields[1])] = Point(latitude: numbers[0], longitude: numbers[1])
        }
        let c = try read(FallasFeedFixtures.fallas)
        #expect(c.features.count == 5)
        for feature in c.features {
            #expect(csv[feature.id] != nil, "falla \(feature.id) is not in the CSV")
            if let point = csv[feature.id] { #expect(feature.geometry == .point(point), "falla \(feature.id)") }
        }
    }

    @Test func optionsSelectIDAndName() throws {
        let c = try read(FallasFeedFixtures.fallas, options: ReadOptions(idField: "calle", nameField: "presidente"))
        #expect(c.features.map(\.id).first == "Na Jordana")
        #expect(c.features.map(\.name).first == "Pere Borrego Pitarch")
        let byTitle = try read(FallasFeedFixtures.fallas, options: ReadOptions(idField: "title"))
        #expect(byTitle.features.last?.id == "Avinguda de l'Oest")

        let typo = formatError { () throws(FormatError) in
            try read(FallasFeedFixtures.fallas, options: ReadOptions(nameField: "presidnte"))
        }
        expect(typo, code: .missingField, mentions: ["fallas.atom", "'presidnte'", "presidente"])
        // The Mercat Central entry (3) has an empty artistaMayor.
        let emptyID = formatError { () throws(FormatError) in
            try read(FallasFeedFixtures.fallas, options: ReadOptions(idField: "artistaMayor"))
        }
        expect(emptyID, code: .missingField, mentions: ["feature 3", "'artistaMayor'", "empty or null"])
    }

    @Test func rssWithW3CBasicGeo() throws {
        let c = try read(FallasFeedFixtures.rssW3CGeo)
        #expect(c.features.map(\.id) == ["falla-9", "falla-12"])
        #expect(c.features[0].geometry == .point(Point(latitude: 39.48100415750942, longitude: -0.3801110157807973)))
        #expect(c.features[1].geometry == .point(Point(latitude: 39.46643844060057, longitude: -0.37951592968874953)))
        #expect(c.features[1].name == "Convent de Jerusalem-Matemàtic Marzal")
    }

    @Test func emptyFeed() throws {
        let c = try read(FallasFeedFixtures.empty)
        #expect(c.features.isEmpty)
        #expect(c.crs == .epsg(4326))
        #expect(c.warnings == ["the feed has no entries"])
    }

    // MARK: Bad points

    /// Entry 2 (Pilar, pl., id 34) opens on line 13; its `<georss:point>` is on line 17.
    @Test(
        arguments: [
            // Tokyo written longitude first: only the exchanged numbers are in range.
            (
                "139.6917 35.6895",
                [
                    "latitude 139.6917 is outside [-90, 90]", "the order looks swapped",
                    "GeoRSS writes latitude first", "latitude 35.6895, longitude 139.6917",
                ]
            ),
            ("95 200", ["latitude 95 is outside [-90, 90] and longitude 200 is outside [-180, 180]"]),
            ("39.47 -190", ["longitude -190 is outside [-180, 180]"]),
            ("39.47 -0.38 12", ["exactly two numbers", "found 3"]),
            ("39.47,-0.38", ["found 1", "with a space, not a comma"]),
            ("39.47 oeste", ["longitude 'oeste' is not a number"]),
            ("nan -0.38", ["latitude 'nan' is not a number"]),
        ])
    func invalidPoint(_ point: String, _ mentions: [String]) {
        let error = formatError { () throws(FormatError) in
            try read(FallasFeedFixtures.feed(secondEntryPoint: point))
        }
        expect(
            error, code: .invalidGeometry,
            mentions: ["fallas.atom", "line 17", "feature 2 (id 34)", "georss:point", "entry 2 'Pilar, pl.'"] + mentions
        )
        if !point.hasPrefix("139") { #expect(error?.message.contains("swapped") == false) }
    }

    @Test func missingPoint() throws {
        let text = FallasFeedFixtures.feed(secondEntryPoint: nil)
        let error = formatError { () throws(FormatError) in try read(text) }
        expect(
            error, code: .missingGeometry,
            mentions: [
                "fallas.atom: line 13, feature 2 (id 34)", "entry 2 'Pilar, pl.' has no <georss:point>",
            ])

        let skipped = try read(text, options: ReadOptions(skipFeaturesWithoutGeometry: true))
        #expect(skipped.features.map(\.id) == ["9"])
        #expect(skipped.warnings == ["entry 2 'Pilar, pl.' (id 34), line 13: has no <georss:point>; skipped"])
    }

    @Test func emptyPointOrOtherGeometry() {
        let empty = formatError { () throws(FormatError) in
            try read(FallasFeedFixtures.feed(secondEntryPoint: "  "))
        }
        expect(empty, code: .missingGeometry, mentions: ["line 13", "has an empty <georss:point>"])
        let line = formatError { () throws(FormatError) in
            try read(
                FallasFeedFixtures.feed(
                    secondEntryPoint: nil, extra: "      <georss:line>39.47 -0.38 39.48 -0.39</georss:line>\n"))
        }
        expect(line, code: .missingGeometry, mentions: ["only <georss:line>", "which geoq does not read"])
        let two = formatError { () throws(FormatError) in
            try read(
                FallasFeedFixtures.feed(
                    secondEntryPoint: "39.47 -0.38", extra: "      <georss:point>39.48 -0.39</georss:point>\n"))
        }
        expect(two, code: .invalidGeometry, mentions: ["line 18", "has 2 <georss:point> elements"])
        let halfW3C = formatError { () throws(FormatError) in
            try read(FallasFeedFixtures.feed(secondEntryPoint: nil, extra: "      <geo:lat>39.47</geo:lat>\n"))
        }
        expect(halfW3C, code: .invalidGeometry, mentions: ["line 17", "found only <geo:lat>"])
    }

    // MARK: Bad documents

    @Test func malformedXML() {
        let error = formatError { () throws(FormatError) in try read(FallasFeedFixtures.malformed) }
        expect(error, code: .invalidSyntax, mentions: ["fallas.atom: line 9", "malformed XML"])
        // A prefix used without its xmlns declaration (here geo:, on line 3).
        let undeclared = formatError { () throws(FormatError) in
            try read(
                "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<entry><title>Na Jordana</title>\n<geo:lat>39.48</geo:lat>"
            )
        }
        expect(undeclared, code: .invalidSyntax, mentions: ["line 3", "undeclared namespace prefix"])
    }

    @Test func notAFeed() {
        let kml = formatError { () throws(FormatError) in
            try read("<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"/>")
        }
        expect(kml, code: .unsupportedFormat, mentions: ["line 2", "root element is <kml>", "<feed> or <rss>"])
        let empty = formatError { () throws(FormatError) in try read("") }
        expect(empty, code: .invalidSyntax, mentions: ["file is empty"])
    }

    // MARK: Detection

    @Test func detectedByContent() throws {
        let xml = try writeTemporaryFile(FallasFeedFixtures.fallas, name: "fallas.xml")
        #expect(try FormatDetector.format(ofFileAt: xml) == .geoRSSFeed)
        #expect(try readFeatures(at: xml).features.count == 5)
        let atom = try writeTemporaryFile(FallasFeedFixtures.rssW3CGeo, name: "fallas.atom")
        #expect(try FormatDetector.format(ofFileAt: atom) == .geoRSSFeed)
        #expect(try readFeatures(at: atom).features.count == 2)
        let other = try writeTemporaryFile("<?xml version=\"1.0\"?>\n<catalog/>", name: "catalog.xml")
        let error = formatError { () throws(FormatError) in try readFeatures(at: other) }
        expect(error, code: .unsupportedFormat, mentions: ["catalog.xml", "root element is <catalog>", "<Anuncios>"])
        let missing = formatError { () throws(FormatError) in
            try readFeatures(at: URL(fileURLWithPath: "/nonexistent/fallas.xml"))
        }
        expect(missing, code: .fileNotFound, mentions: ["/nonexistent/fallas.xml"])
    }

    // MARK: feedparser's GeoRSS conformance files

    /// feedparser's well-formed geo tests whose root is `<feed>`/`<rss>` and that hold a
    /// `georss:point` give the point their header states. feedparser writes the expected
    /// coordinates in GeoJSON order, `(lon, lat)`: georss_point.xml holds
    /// `<georss:point> 36.9382 31.1732 </georss:point>` and expects `(31.1732, 36.9382)`.
    /// Of the folder's 10 files, 1 qualifies (the others hold lines, polygons, boxes or GML).
    @Test func feedparserWellformedPoints() throws {
        let folder = try Self.sharedFile("georss/feedparser-geo-tests/tests/wellformed/geo")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let pattern = #/\['coordinates'\] == \((-?[0-9.]+), (-?[0-9.]+)\)/#
        var checked: [String] = []
        for name in names.sorted() where name.hasSuffix(".xml") {
            let url = folder.appendingPathComponent(name)
            let root = try FormatDetector.rootElement(ofFileAt: url)
            let text = try String(contentsOf: url, encoding: .utf8)
            guard root == "feed" || root == "rss", text.contains("georss:point") else { continue }
            guard let expect = text.firstMatch(of: pattern), let lon = Double(expect.1), let lat = Double(expect.2)
            else {
                Issue.record("\(name): no simple point in the header comment")
                continue
            }
            let c = try readFeatures(at: url)
            #expect(c.features.count == 1, "\(name)")
            #expect(c.features.first?.geometry == .point(Point(latitude: lat, longitude: lon)), "\(name)")
            checked.append(name)
        }
        #expect(checked == ["georss_point.xml"])
    }

    /// feedparser's ill-formed `<georss:point> </georss:point>` is an entry without a point.
    @Test func feedparserIllformedEmptyPoint() throws {
        let url = try Self.sharedFile("georss/feedparser-geo-tests/tests/illformed/geo/georss_point_no_coords.xml")
        let error = formatError { () throws(FormatError) in try readFeatures(at: url) }
        expect(error, code: .missingGeometry, mentions: ["line 9", "feature 1 (id 1)", "has an empty <georss:point>"])
    }
}
