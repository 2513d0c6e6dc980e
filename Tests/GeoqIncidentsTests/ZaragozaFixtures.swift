import Foundation
import GeoqFormats
import GeoqIncidents
import GeoqTestSupport

/// The hand-written Zaragoza feeds (Tests/GeoqIncidentsTests/Fixtures), one per type.
enum ZaragozaFixtures {
    static let directory = TestData.packageRoot.appendingPathComponent("Tests/GeoqIncidentsTests/Fixtures")
    static let seen = Date(timeIntervalSince1970: 1_795_420_800)  // 2026-11-23T08:00Z

    static func url(_ type: Int) -> URL { directory.appendingPathComponent("zaragoza-type-\(type).xml") }

    /// The feed's items as incidents of the city's source for `type` (all positions are WGS84
    /// GeoRSS points).
    static func incidents(_ type: IncidentType) throws -> [Incident] {
        var incidents: [Incident] = []
        var builder = IncidentBuilder(
            source: IncidentSource.name(forFeed: type.zaragozaFeedURL), type: type, seen: seen)
        _ = try GeoRSSFeedReader.read(file: url(type.rawValue)) { entry in
            incidents.append(
                builder.incident(
                    title: entry.title, guid: entry.id, link: entry.link, published: entry.published,
                    html: entry.description, geometry: entry.location?.geometry))
        }
        return incidents
    }
}
