import Foundation
import GeoqAPI
import GeoqCore
import GeoqIncidents
import GeoqLayers
import GeoqPROJ
import GeoqQuery
import Testing

/// `/v1/incidents`: the incidents of the snapshot, filtered and ordered as `geoq incidents`.
@Suite struct IncidentsEndpointTests {
    static let refreshed = Date(timeIntervalSince1970: 1_795_000_000)
    static let zaragoza = "zaragoza.es/sede/servicio/incidencia?id=1"
    /// Three incidents written for this test (not from a feed) around Zaragoza's Plaza del Pilar
    /// (41.6563, -0.8787), one without a location, from two sources. Expected dates from
    /// Python's zoneinfo.
    static let incidents: [Incident] = [
        Incident(
            id: "cut-a", source: zaragoza, type: .trafficCut, categories: ["Corte de tráfico"],
            title: "Corte en Calle Alfonso I", link: nil,
            published: Date(timeIntervalSince1970: 1_794_900_000), description: "Obras",
            geometry: .point(Point(latitude: 41.6540, longitude: -0.8790)), seen: refreshed),
        Incident(
            id: "water-b", source: "example.org/agua.rss", type: .waterCut, categories: ["Agua", "Obras"],
            title: "Corte de agua en Delicias", link: "https://example.org/b",
            published: Date(timeIntervalSince1970: 1_794_990_000), description: "Sin descripción",
            geometry: .point(Point(latitude: 41.6480, longitude: -0.9100)), seen: refreshed),
        Incident(
            id: "cut-c", source: zaragoza, type: .trafficCut, categories: ["Corte de tráfico"],
            title: "Corte sin lugar", link: nil,
            published: Date(timeIntervalSince1970: 1_794_800_000), description: "Sin descripción", geometry: nil,
            seen: refreshed),
    ]
    static let data = ServiceData(
        sectorLookups: [:], layers: [], incidents: incidents, incidentsRefreshedAt: refreshed, storeFile: "",
        defaultSectorLayer: "pamplona-sectors", geodesic: Geodesic.wgs84,
        loadedAt: Date())

    func answer(_ pairs: [(String, String)], data: ServiceData = Self.data) throws(Problem) -> IncidentsAnswer {
        try IncidentsEndpoint.answer(QueryParameters(pairs.map { (name: $0.0, value: $0.1) }), data: data)
    }

    func problem(_ pairs: [(String, String)], data: ServiceData = Self.data) -> Problem? {
        do {
            _ = try answer(pairs, data: data)
            return nil
        } catch { return error }
    }

    @Test func withoutAPositionNewestFirst() throws {
        let a = try answer([])
        #expect(a.held == 3)
        #expect(a.count == 3)
        #expect(a.incidents.map(\.id) == ["water-b", "cut-a", "cut-c"])
        #expect(a.refreshedAt == "2026-11-18T11:06:40Z")
        #expect(a.status.hasPrefix("3 incidents held, refreshed 18/11/2026 12:06:40 ("))
        #expect(a.incidents[0].publishedDisplay == "18/11/2026 09:20:00")
        #expect(a.incidents[0].location?.latitude == 41.6480)
    }

    @Test func nearestFirstWithKarneyDistances() throws {
        let pilar = Point(latitude: 41.6563, longitude: -0.8787)
        let a = try answer([("lat", "41.6563"), ("lon", "-0.8787")])
        // The incident without a location comes last, without a distance.
        #expect(a.incidents.map(\.id) == ["cut-a", "water-b", "cut-c"])
        for (item, incident) in zip(a.incidents.prefix(2), [Self.incidents[0], Self.incidents[1]]) {
            guard case .point(let p)? = incident.geometry else { continue }
            let exact = Geodesic.wgs84.distanceAndBearing(from: pilar, to: p)
            #expect(item.distanceMetres == (exact.distance * 100).rounded() / 100)
            #expect(item.bearing == (exact.bearing * 10).rounded() / 10)
        }
        #expect(a.incidents[2].distanceMetres == nil)
        let near = try answer([("lat", "41.6563"), ("lon", "-0.8787"), ("within", "1000")])
        #expect(near.incidents.map(\.id) == ["cut-a"])
        #expect(near.held == 3)
    }

    @Test func typeSinceAndCount() throws {
        #expect(try answer([("type", "traffic-cut")]).incidents.map(\.id) == ["cut-a", "cut-c"])
        #expect(try answer([("type", "0"), ("type", "1")]).count == 3)
        #expect(try answer([("since", "2026-11-17T00:00")]).incidents.map(\.id) == ["water-b", "cut-a"])
        #expect(try answer([("since", "2026-11-17")]).count == 2)
        #expect(try answer([("n", "1")]).incidents.map(\.id) == ["water-b"])
    }

    @Test func sourceAndCategoryRepeatableAndInTheAnswer() throws {
        #expect(try answer([("source", Self.zaragoza)]).incidents.map(\.id) == ["cut-a", "cut-c"])
        #expect(try answer([("source", "example.org/agua.rss")]).incidents.map(\.id) == ["water-b"])
        #expect(try answer([("source", Self.zaragoza), ("source", "example.org/agua.rss")]).count == 3)
        #expect(try answer([("source", "example.org")]).count == 0)  // a name, not a prefix
        #expect(try answer([("category", "obras")]).incidents.map(\.id) == ["water-b"])
        #expect(try answer([("category", "CORTE DE TRAFICO")]).incidents.map(\.id) == ["cut-a", "cut-c"])
        #expect(try answer([("category", "agua"), ("category", "corte de tráfico")]).count == 3)
        #expect(try answer([("category", "obras"), ("source", Self.zaragoza)]).count == 0)

        // Each item says where it came from and its categories, in JSON and in GeoJSON.
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(try answer([]))) as! [String: Any]
        let items = json["incidents"] as! [[String: Any]]
        #expect(items.map { $0["source"] as? String } == ["example.org/agua.rss", Self.zaragoza, Self.zaragoza])
        #expect(items[0]["categories"] as? [String] == ["Agua", "Obras"])
        let hits = try IncidentsEndpoint.selection(
            QueryParameters([(name: "category", value: "obras")]), data: Self.data)
        let features = IncidentsAnswer.geoJSON(hits)["features"] as! [[String: Any]]
        let properties = try #require(features.first?["properties"] as? [String: Any])
        #expect(properties["source"] as? String == "example.org/agua.rss")
        #expect(properties["categories"] as? [String] == ["Agua", "Obras"])
    }

    @Test func nothingHeldYet() throws {
        let empty = ServiceData(
            sectorLookups: [:], layers: [], storeFile: "", defaultSectorLayer: "pamplona-sectors",
            geodesic: Geodesic.wgs84,
            loadedAt: Date())
        let a = try answer([], data: empty)
        #expect(a.held == 0 && a.count == 0 && a.refreshedAt == nil)
        #expect(a.status.hasPrefix("no incidents held yet"))
    }

    @Test func badRequestsNameTheParameter() {
        let cases: [([(String, String)], String)] = [
            ([("lat", "41.65")], "lon"),
            ([("lon", "-0.87")], "lat"),
            ([("lat", "91"), ("lon", "0")], "lat"),
            ([("within", "100")], "lat"),
            ([("lat", "41.65"), ("lon", "-0.87"), ("within", "-1")], "within"),
            ([("type", "9")], "type"),
            ([("type", "floods")], "type"),
            ([("since", "yesterday")], "since"),
            ([("source", "")], "source"),
            ([("category", "")], "category"),
            ([("n", "0")], "n"),
            ([("near", "41.65,-0.87")], "near"),
        ]
        for (pairs, parameter) in cases {
            let p = problem(pairs)
            #expect(p?.status == 400, "\(pairs)")
            #expect(p?.parameter == parameter, "\(pairs): \(String(describing: p?.detail))")
        }
    }

    @Test func unreadableStoreIsAServerProblem() {
        let broken = ServiceData(
            sectorLookups: [:], layers: [], incidentsProblem: "store unreadable", storeFile: "",
            defaultSectorLayer: "pamplona-sectors", geodesic: Geodesic.wgs84,
            loadedAt: Date())
        #expect(problem([], data: broken)?.status == 500)
    }
}
