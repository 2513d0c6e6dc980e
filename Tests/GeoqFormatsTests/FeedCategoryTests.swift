import Foundation
import GeoqFormats
import GeoqTestSupport
import Testing

/// An entry's own `<category>` elements, RSS 2.0 (text) and Atom (`term`, else `label`, else text).
@Suite struct FeedCategoryTests {
    func entries(_ xml: String) throws -> [FeedEntry] {
        try GeoRSSFeedReader.entries(data: Data(xml.utf8), source: "categories.xml").1
    }

    @Test func rssCategoriesAreTheTrimmedTextsInOrder() throws {
        let xml = """
            <rss version="2.0"><channel><title>t</title><category>channel-level</category>
            <item><title>a</title><category> Obras </category><category domain="x">Corte de agua</category>
            <category>  </category><category/></item>
            <item><title>b</title></item>
            </channel></rss>
            """
        let items = try entries(xml)
        try #require(items.count == 2)
        #expect(items[0].categories == ["Obras", "Corte de agua"])
        #expect(items[1].categories == [])
    }

    @Test func atomCategoriesPreferTermThenLabelThenText() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><category term="feed-level"/>
            <entry><id>e1</id><category term=" obras " label="Obras"/><category label="Tráfico"/>
            <category term="" label=" Aviso ">ignored</category><category>texto</category><category term="  "/>
            <source><category term="from-the-source-feed"/></source></entry>
            </feed>
            """
        let items = try entries(xml)
        try #require(items.count == 1)
        #expect(items[0].categories == ["obras", "Tráfico", "Aviso", "texto"])
    }

    @Test func aPrefixedAtomEntryKeepsItsCategories() throws {
        let xml = """
            <atom:feed xmlns:atom="http://www.w3.org/2005/Atom"><atom:entry><atom:id>e</atom:id>
            <atom:category term="uno"/><atom:category term="dos"/></atom:entry></atom:feed>
            """
        #expect(try entries(xml).map(\.categories) == [["uno", "dos"]])
    }

    /// feedparser's conformance file and Zaragoza's feeds carry no category.
    @Test func feedsWithoutCategoriesGiveNone() throws {
        let url = TestData.url("georss/feedparser-geo-tests/tests/wellformed/geo/georss_point.xml")
        let (_, atom) = try GeoRSSFeedReader.entries(data: Data(contentsOf: url), source: url.path)
        #expect(atom.map(\.categories) == [[]])
        let zaragoza = TestData.packageRoot.appendingPathComponent(
            "Tests/GeoqIncidentsTests/Fixtures/zaragoza-type-0.xml")
        var categories: [[String]] = []
        _ = try GeoRSSFeedReader.read(file: zaragoza) { categories.append($0.categories) }
        #expect(categories == [[]])
    }
}
