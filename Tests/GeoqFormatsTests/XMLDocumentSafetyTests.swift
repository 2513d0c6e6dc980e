import Foundation
import GeoqCore
import GeoqFormats
import Testing

/// What reading XML with libxml2's streaming reader guarantees every XML reader: errors at their
/// line (also when the file is read in chunks), entities that cannot reach outside the document
/// or blow up, the encoding the prolog declares, and one rule for GeoRSS's namespace.
@Suite struct XMLDocumentSafetyTests {
    func feed(items: String, prolog: String = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") -> String {
        prolog + "<rss version=\"2.0\" xmlns:georss=\"http://www.georss.org/georss\"><channel>\n" + items
            + "</channel></rss>\n"
    }

    func syntaxError(_ body: () throws -> Void) -> FormatError? {
        do {
            try body()
        } catch let error as FormatError {
            return error
        } catch {
            Issue.record("not a FormatError: \(error)")
        }
        return nil
    }

    @Test func aMalformedDocumentNamesItsLineColumnAndOpenElements() throws {
        // Line 1 prolog, 2 <rss><channel>, 3 a good item, 4 the <title> closed by </item>.
        let text = feed(items: "<item><title>a</title></item>\n<item><title>b</item>\n")
        let error = try #require(
            syntaxError { _ = try GeoRSSFeedReader.entries(data: Data(text.utf8), source: "broken.xml") })
        #expect(error.code == .invalidSyntax)
        #expect(error.description.hasPrefix("broken.xml: line 4"), "\(error)")
        #expect(error.description.contains("malformed XML at column "), "\(error)")
        #expect(error.description.contains("closing tag does not match the open element"), "\(error)")
        #expect(error.description.contains("(open elements: <rss> <channel> <item> <title>)"), "\(error)")
    }

    /// A file is read in chunks: an error far into it still names its own line.
    @Test func aMalformedFileReadAsAStreamNamesItsLine() throws {
        var items = ""
        for i in 1...3000 { items += "<item><guid>g\(i)</guid><georss:point>41.65 -0.88</georss:point></item>\n" }
        // Item 2500 is on line 2 + 2500 = 2502; its point is never closed.
        items = items.replacingOccurrences(
            of: "<item><guid>g2500</guid><georss:point>41.65 -0.88</georss:point>",
            with: "<item><guid>g2500</guid><georss:point>41.65 -0.88</item>")
        let url = try writeTemporaryFile(feed(items: items), name: "long.xml")
        var read = 0
        let error = try #require(syntaxError { _ = try GeoRSSFeedReader.read(file: url) { _ in read += 1 } })
        #expect(error.description.hasPrefix("\(url.path): line 2502"), "\(error)")
        #expect(error.description.contains("<item> <georss:point>)"), "\(error)")
        #expect(read < 2500)
    }

    /// Billion laughs: ten levels of ten references would expand to 10^9 "lol"s.
    @Test func anEntityBombIsRefused() throws {
        var dtd = "<!DOCTYPE rss [\n<!ENTITY lol0 \"lol\">\n"
        for level in 1...9 {
            dtd += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
        }
        dtd += "]>\n"
        let text = feed(items: "<item><title>&lol9;</title></item>\n", prolog: "<?xml version=\"1.0\"?>\n" + dtd)
        let error = try #require(
            syntaxError { _ = try GeoRSSFeedReader.entries(data: Data(text.utf8), source: "bomb.xml") })
        #expect(error.code == .invalidSyntax)
        // The reference is on line 15 (prolog, DOCTYPE, 10 entities, "]>", <rss>, then the item),
        // and ends at column 19 (`<item><title>&lol9;`): the error is reported just after it.
        #expect(error.description.hasPrefix("bomb.xml: line 15: malformed XML at column 20:"), "\(error)")
        #expect(error.description.contains("entity loop or bomb"), "\(error)")
    }

    /// An external entity is never read: the file's text reaches no field.
    @Test func anExternalEntityIsLeftUnexpanded() throws {
        let secret = try writeTemporaryFile("secret-4711", name: "secret.txt")
        let text = feed(
            items: "<item><guid>a</guid><title>before &xxe; after</title><description>&xxe;</description></item>\n",
            prolog: "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [<!ENTITY xxe SYSTEM \"file://\(secret.path)\">]>\n")
        let (_, entries) = try GeoRSSFeedReader.entries(data: Data(text.utf8), source: "xxe.xml")
        try #require(entries.count == 1)
        #expect(entries[0].title == "before  after")
        #expect(entries[0].description == nil || entries[0].description == "")
        #expect(!"\(entries[0])".contains("secret-4711"))
    }

    @Test func aDocumentInISO88591DecodesAsItsPrologSays() throws {
        let text = feed(
            items: "<item><title>Calle Peñaflor, Cádiz</title><georss:point>41.65 -0.88</georss:point></item>\n",
            prolog: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n")
        let data = try #require(text.data(using: .isoLatin1))
        #expect(String(data: data, encoding: .utf8) == nil)  // not UTF-8: the prolog must be obeyed
        #expect(data.count == text.unicodeScalars.count)
        let (_, entries) = try GeoRSSFeedReader.entries(data: data, source: "latin1.xml")
        #expect(entries.map(\.title) == ["Calle Peñaflor, Cádiz"])
        #expect(entries.first?.location?.geometry == .point(Point(x: -0.88, y: 41.65)))
    }

    /// GeoRSS is recognised by its namespace whatever the prefix, by both feed readers; a feed
    /// binding the usual prefix to another URI is still read by that prefix.
    @Test func georssIsRecognisedByNamespaceElseByItsUsualPrefix() throws {
        let text = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:gr="http://www.georss.org/georss"
                  xmlns:georss="http://www.georss.org/georss/10" xmlns:other="urn:example:other">
            <entry><id>1</id><title>a</title><gr:point>39.47 -0.37</gr:point></entry>
            <entry><id>2</id><title>b</title><georss:point>39.48 -0.38</georss:point></entry>
            <entry><id>3</id><title>c</title><other:point>39.49 -0.39</other:point></entry>
            </feed>
            """
        let (_, entries) = try GeoRSSFeedReader.entries(data: Data(text.utf8), source: "ns.atom")
        #expect(
            entries.map(\.location?.geometry) == [
                .point(Point(x: -0.37, y: 39.47)), .point(Point(x: -0.38, y: 39.48)), nil,
            ])
        let fallas = try GeoRSSPointReader(options: ReadOptions(skipFeaturesWithoutGeometry: true))
            .read(data: Data(text.utf8), source: "ns.atom")
        #expect(fallas.features.map(\.id) == ["1", "2"])
        #expect(
            fallas.features.map(\.geometry) == [.point(Point(x: -0.37, y: 39.47)), .point(Point(x: -0.38, y: 39.48))])
    }
}
