import Foundation
import GeoqCore
import GeoqIncidents
import GeoqPROJ
import GeoqQuery
import Testing

/// Feeds are sources: names derived from the address, Zaragoza's types for its own addresses,
/// refreshes that touch only their own source, and filters by source and category.
@Suite struct IncidentSourceTests {
    @Test(
        arguments: [
            ("https://www.zaragoza.es/sede/servicio/incidencia?id=1", "zaragoza.es/sede/servicio/incidencia?id=1"),
            ("https://example.org/feeds/cortes.rss?lang=es&token=abc", "example.org/feeds/cortes.rss"),
            ("http://127.0.0.1:8080/files/zaragoza-type-3.xml?id=3", "127.0.0.1:8080/files/zaragoza-type-3.xml?id=3"),
            ("https://Example.ORG/", "example.org"),
            ("/tmp/feeds/cortes.xml", "cortes"),
            ("gml_point_utm.xml", "gml_point_utm"),
            ("file:///tmp/cortes%20de%20agua.rss", "cortes de agua"),
        ])
    func namesFromTheAddress(feed: String, expected: String) {
        #expect(IncidentSource.name(forFeed: feed) == expected)
    }

    @Test func zaragozasTypesOnlyForItsAddresses() {
        #expect(IncidentType(feedURL: "https://www.zaragoza.es/sede/servicio/incidencia?id=1") == .trafficCut)
        #expect(IncidentType(feedURL: "https://zaragoza.es/sede/servicio/incidencia?lang=es&id=4") == .tramDisruption)
        #expect(IncidentType(feedURL: "https://www.zaragoza.es/sede/servicio/incidencia?id=9") == nil)
        // Elsewhere `id` means something else.
        #expect(IncidentType(feedURL: "https://example.org/rss?id=4") == nil)
        #expect(IncidentType(feedURL: "https://notzaragoza.es/rss?id=1") == nil)
        #expect(IncidentType(feedURL: "feed.xml") == nil)
        #expect(IncidentType(argument: "tram") == .tramDisruption)
        #expect(IncidentType(argument: "0") == .waterCut)
        #expect(IncidentSource.legacy(type: .waterCut) == "zaragoza.es/sede/servicio/incidencia?id=0")
    }

    static func incident(_ id: String, source: String, categories: [String] = [], type: IncidentType? = nil)
        -> Incident
    {
        Incident(
            id: id, source: source, type: type, categories: categories, title: id, link: nil,
            published: Date(timeIntervalSince1970: 1_795_282_200), description: "Sin descripción", geometry: nil,
            seen: Date(timeIntervalSince1970: 1_795_420_800))
    }

    static func keys(_ incidents: [Incident]) -> [String] { incidents.map { "\($0.source)/\($0.id)" } }

    @Test func aRefreshTouchesOnlyItsOwnSource() {
        let a = [Self.incident("1", source: "a"), Self.incident("2", source: "a")]
        // Source b uses the same id "1": another incident.
        let b = [Self.incident("1", source: "b"), Self.incident("3", source: "b")]
        var held = IncidentMerge.merge(held: [], refreshed: a, source: "a").incidents
        let second = IncidentMerge.merge(held: held, refreshed: b, source: "b")
        held = second.incidents
        #expect(Self.keys(held) == ["a/1", "a/2", "b/1", "b/3"])
        #expect((second.added, second.updated, second.ended) == (2, 0, 0))
        // a again without "2", "1" updated: "2" ended; b untouched.
        var later = Self.incident("1", source: "a")
        later.description = "Actualizado"
        let third = IncidentMerge.merge(held: held, refreshed: [later], source: "a")
        #expect((third.added, third.updated, third.ended) == (0, 1, 1))
        #expect(Self.keys(third.incidents) == ["a/1", "b/1", "b/3"])
        #expect(third.incidents[0].description == "Actualizado")
        #expect(third.incidents[1] == b[0])
        // An empty feed: source b has no incidents now; a stays.
        let empty = IncidentMerge.merge(held: third.incidents, refreshed: [], source: "b")
        #expect(Self.keys(empty.incidents) == ["a/1"])
        #expect(empty.ended == 2)
    }

    @Test func zaragozasFeedsAreSourcesToo() throws {
        // Each of the city's feeds is its own source: the all-incidents feed (type 3) no longer
        // ends the traffic cuts it does not list, nor takes over the ones it does.
        let traffic = try ZaragozaFixtures.incidents(.trafficCut)
        let all = try ZaragozaFixtures.incidents(.all)
        var held = IncidentMerge.merge(held: [], refreshed: traffic, source: traffic[0].source).incidents
        held = IncidentMerge.merge(held: held, refreshed: all, source: all[0].source).incidents
        #expect(held.count == 6)
        #expect(held.filter { $0.id == "trafico-2001" }.map(\.type) == [.trafficCut, .all])
    }

    @Test func filtersBySourceAndCategory() {
        let incidents = [
            Self.incident("1", source: "a", categories: ["Corte de tráfico"], type: .trafficCut),
            Self.incident("2", source: "a", categories: ["Obras", "Agua"]),
            Self.incident("3", source: "b", categories: ["obras"]),
            Self.incident("4", source: "b"),
        ]
        func ids(_ query: IncidentQuery) -> [String] {
            Self.keys(query.run(IncidentSet(incidents), geodesic: Geodesic.wgs84).map(\.incident))
        }
        #expect(ids(IncidentQuery(sources: ["b"])) == ["b/3", "b/4"])
        #expect(ids(IncidentQuery(sources: ["a", "b"])).count == 4)
        #expect(ids(IncidentQuery(sources: ["c"])).isEmpty)
        #expect(ids(IncidentQuery(categories: ["OBRAS"])) == ["a/2", "b/3"])
        #expect(ids(IncidentQuery(categories: ["corte de trafico"])) == ["a/1"])
        #expect(ids(IncidentQuery(categories: ["agua", "corte de tráfico"])) == ["a/1", "a/2"])
        #expect(ids(IncidentQuery(sources: ["b"], categories: ["obras"])) == ["b/3"])
        // An incident without a type is never of one.
        #expect(ids(IncidentQuery(types: [.trafficCut])) == ["a/1"])
    }
}
