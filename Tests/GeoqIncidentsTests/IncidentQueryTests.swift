import Foundation
import GeoqCore
import GeoqIncidents
import GeoqPROJ
import GeoqQuery
import Testing

@Suite struct IncidentQueryTests {
    @Test func storeFeatureRoundTrip() throws {
        for incident in try ZaragozaFixtures.incidents(.trafficCut) {
            #expect(Incident(feature: incident.feature) == incident)
        }
    }

    @Test func nearestFirstWithGeodesicDistances() throws {
        let geodesic = Geodesic.wgs84
        var held: [Incident] = []
        for type in IncidentType.allCases { held += try ZaragozaFixtures.incidents(type) }
        let incidents = IncidentSet(held)
        let plazaEspana = Point(latitude: 41.6510, longitude: -0.8800)
        let hits = IncidentQuery(near: plazaEspana, withinMetres: 1000).run(incidents, geodesic: geodesic)
        // Each distance is PROJ's geodesic to the incident's point; sorted, all within 1 km.
        #expect(hits.first?.incident.id == "todas-4001")
        #expect(hits.first?.distanceMetres == 0)
        for (a, b) in zip(hits, hits.dropFirst()) { #expect(a.distanceMetres! <= b.distanceMetres!) }
        for hit in hits {
            guard case .point(let p)? = hit.incident.geometry else { continue }
            #expect(abs(hit.distanceMetres! - geodesic.inverse(from: plazaEspana, to: p).distance) < 1e-6)
            #expect(hit.distanceMetres! <= 1000)
        }
        // Delicias (2.1 km away) is left out; without --within it comes last but one (no location last).
        #expect(!hits.contains { $0.incident.id == "agua-1001" })
        let typed = IncidentQuery(types: [.tramDisruption, .waterCut]).run(incidents, geodesic: geodesic)
        #expect(typed.map(\.incident.id) == ["tranvia-5001", "agua-1001"])  // newest first
        let since = IncidentQuery(since: FeedDateParse.parse("2026-11-22T00:00:00+01:00")).run(
            incidents, geodesic: geodesic)
        #expect(Set(since.map(\.incident.id)) == ["trafico-2002", "todas-4001"])
    }

    @Test func displayDatesInMadrid() {
        let date = Date(timeIntervalSince1970: 1_795_282_200)  // 2026-11-21T17:30Z
        #expect(IncidentDates.display(date) == "21/11/2026 18:30:00")
        #expect(IncidentDates.display(Date(timeIntervalSince1970: 1_782_900_000)) == "01/07/2026 12:00:00")
    }
}

enum FeedDateParse {
    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)
    }
}
