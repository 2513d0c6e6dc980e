import Foundation
import GeoqCore
import GeoqTestSupport
import Testing

@testable import GeoqIncidents

/// Ids unique and stable within a source: guid, else link, else a digest of title, date and
/// geometry. Expected digests from a separate Python FNV-1a implementation (128-bit, the
/// published offset basis and prime) over the canonical text written out by hand.
@Suite struct IncidentIdentityTests {
    static let seen = Date(timeIntervalSince1970: 1_795_420_800)
    static let published = Date(timeIntervalSince1970: 1_795_282_200)  // 2026-11-21T17:30Z
    static let mayor = Geometry.point(Point(latitude: 41.6540, longitude: -0.8790))

    @Test(
        arguments: [
            ("", "6c62272e07bb014262b821756295c58d"),  // the offset basis itself
            ("a", "d228cb696f1a8caf78912b704e4a8964"),
            ("foobar", "343e1662793c64bf6f0d3597ba446f18"),
        ])
    func fnv1a128(text: String, expected: String) {
        #expect(IncidentDigest.hex(IncidentDigest.fnv1a128(Array(text.utf8))) == expected)
    }

    @Test func digestsOfTitleDateAndGeometry() throws {
        // "Calle Mayor\n1795282200\nPOINT(-8790000 416540000)"
        #expect(
            IncidentDigest.id(title: "Calle Mayor", published: Self.published, geometry: Self.mayor)
                == "8271140b090026a961a1e04dc5ded61c")
        // 0.0001° further west: another entry, another id.
        #expect(
            IncidentDigest.id(
                title: "Calle Mayor", published: Self.published,
                geometry: .point(Point(latitude: 41.6540, longitude: -0.8791))) == "6e0e2ed30a7ed5f6a0c2095df7208243")
        #expect(
            IncidentDigest.id(title: "Calle Mayor", published: nil, geometry: nil)
                == "0a6561f0e6a8cc42dcb5c4bda295e638")
        #expect(
            IncidentDigest.id(
                title: "Paseo María Agustín", published: Self.published,
                geometry: .lineString([
                    Point(latitude: 41.6500, longitude: -0.8900), Point(latitude: 41.6520, longitude: -0.8850),
                ])) == "4d5fb31c13457569e55dd6205f8adf12")
    }

    @Test func guidElseLinkElseDigest() {
        var builder = IncidentBuilder(source: "cortes", type: nil, seen: Self.seen)
        func incident(guid: String?, link: String?) -> Incident {
            builder.incident(
                title: " Calle Mayor ", guid: guid, link: link, published: Self.published, html: nil,
                geometry: Self.mayor)
        }
        #expect(incident(guid: "g-1", link: "https://example.org/1").id == "g-1")
        #expect(incident(guid: "  ", link: "https://example.org/1").id == "https://example.org/1")
        #expect(incident(guid: nil, link: "").id == "8271140b090026a961a1e04dc5ded61c")
        // The same title, date and geometry again in the same feed: a different entry, its own id.
        #expect(incident(guid: nil, link: nil).id == "8271140b090026a961a1e04dc5ded61c-2")
        // The next refresh of the same feed gives the same ids (stable).
        var again = IncidentBuilder(source: "cortes", type: nil, seen: Self.seen.addingTimeInterval(600))
        let first = again.incident(
            title: "Calle Mayor", guid: nil, link: nil, published: Self.published, html: nil, geometry: Self.mayor)
        #expect(first.id == "8271140b090026a961a1e04dc5ded61c")
        #expect(first.source == "cortes")
        #expect(first.link == nil)
    }

    /// 20,000 seeded entries without guid or link, drawn from few titles, dates and positions so
    /// that many coincide, some exactly: every entry gets its own id, and entries that differ in
    /// title, date (second) or position (1e-7°) get different digests before any suffix.
    @Test func seededEntriesNeverShareAnId() {
        var rng = SeededRandom(seed: 0x1d_2026)
        var builder = IncidentBuilder(source: "s", type: nil, seen: Self.seen)
        var ids = Set<String>()
        var digestOf: [String: String] = [:]  // the entry's fields, written out -> its digest
        for _ in 0..<20_000 {
            let title = ["Calle Mayor", "Calle Mayor ", "Coso", ""][Int(rng.next() % 4)]
            let seconds = 1_795_282_200 + Double(rng.next() % 5)
            let position = Point(
                latitude: 41.65 + Double(rng.next() % 6) * 1e-7, longitude: -0.88 + Double(rng.next() % 6) * 1e-7)
            let geometry: Geometry? = rng.next() % 10 == 0 ? nil : .point(position)
            let incident = builder.incident(
                title: title, guid: nil, link: nil, published: Date(timeIntervalSince1970: seconds), html: nil,
                geometry: geometry)
            #expect(ids.insert(incident.id).inserted, "\(incident.id) given twice")
            let fields = "\(title.trimmingCharacters(in: .whitespaces))|\(seconds)|\(String(describing: geometry))"
            let digest = String(incident.id.prefix(32))
            if let known = digestOf[fields] {
                #expect(known == digest)
            } else {
                digestOf[fields] = digest
            }
        }
        // Distinct fields, distinct digests (3 titles x 5 dates x (36 positions + none) at most).
        #expect(Set(digestOf.values).count == digestOf.count)
        #expect(digestOf.count > 500)
    }

    @Test func categoriesTheEntrysOwnElseTheTypesName() {
        var zaragoza = IncidentBuilder(source: "z", type: .trafficCut, seen: Self.seen)
        var other = IncidentBuilder(source: "o", type: nil, seen: Self.seen)
        func categories(_ builder: inout IncidentBuilder, _ own: [String]) -> [String] {
            builder.incident(
                title: "t", guid: "g", link: nil, published: nil, html: nil, geometry: nil, categories: own
            ).categories
        }
        #expect(categories(&zaragoza, []) == ["Corte de tráfico"])
        #expect(categories(&zaragoza, ["Obras", " Obras ", "Corte\n  total", ""]) == ["Obras", "Corte total"])
        #expect(categories(&other, []) == [])
        #expect(categories(&other, ["Agua"]) == ["Agua"])
    }

    @Test func storedFeaturesRoundTripWithSourceAndCategories() {
        var builder = IncidentBuilder(source: "example.org/cortes.rss", type: nil, seen: Self.seen)
        let incidents = [
            builder.incident(
                title: "Calle Mayor", guid: nil, link: nil, published: Self.published, html: "<p>Obras</p>",
                geometry: Self.mayor, categories: ["Obras", "Agua"]),
            builder.incident(
                title: "Sin lugar", guid: "x", link: "https://example.org/x", published: nil, html: nil, geometry: nil),
        ]
        for incident in incidents { #expect(Incident(feature: incident.feature) == incident) }
        #expect(incidents[1].categories.isEmpty)
    }

    /// A feature as the store held it before sources and categories: only `type` says where it
    /// came from. It reads as an incident of Zaragoza's feed of that type.
    @Test func aFeatureStoredWithoutASourceReadsAsZaragozasFeedOfItsType() throws {
        let old = Feature(
            id: "trafico-2001", name: "Paseo de la Independencia", geometry: .point(Point(x: -0.8844, y: 41.6488)),
            properties: [
                "type": .number(1), "description": .string("Corte total del carril bus por obras."),
                "seen": .string("2026-11-23T08:00:00Z"), "published": .string("2026-11-21T17:30:00Z"),
                "link": .string("https://www.zaragoza.es/sede/servicio/via-publica/incidencia/2001"),
            ])
        let incident = try #require(Incident(feature: old))
        #expect(incident.source == "zaragoza.es/sede/servicio/incidencia?id=1")
        #expect(incident.type == .trafficCut)
        #expect(incident.categories == ["Corte de tráfico"])
        #expect(incident.id == "trafico-2001")
        #expect(incident.published == Self.published)
        // Neither a source nor a type: not an incident.
        var foreign = old
        foreign.properties["type"] = nil
        #expect(Incident(feature: foreign) == nil)
    }
}
