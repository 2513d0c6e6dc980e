import Foundation
import GeoqCore
import GeoqIncidents
import GeoqSchedule

/// The answer of `geoq incidents --format json` and `GET /v1/incidents`: what is held, how old
/// it is, and the incidents that match, in the query's order.
public struct IncidentsAnswer: Encodable, Sendable {
    /// Incidents held in the store (every source and type).
    public var held: Int
    /// Incidents in this answer.
    public var count: Int
    /// "N incidents held, refreshed dd/mm/yyyy hh:mm:ss (X min ago)", or that none are held yet.
    public var status: String
    /// When the store was last refreshed (ISO 8601), and how many seconds ago.
    public var refreshedAt: String?
    public var ageSeconds: Int?
    public var incidents: [Item]

    public struct Item: Encodable, Sendable {
        /// Unique within its source.
        public var id: String
        /// The feed it came from (a name given on refresh, or derived from the feed's address).
        public var source: String
        /// Zaragoza's type number (SPEC §3) and its Spanish name, when the feed has one.
        public var type: Int?
        public var typeName: String?
        /// The entry's own categories, else the type's name.
        public var categories: [String]
        public var title: String
        /// The cleaned description: plain text, sub-headings on their own lines.
        public var description: String
        /// When geoq first saw it, and when the feed says it was published (ISO 8601, and
        /// dd/mm/yyyy hh:mm:ss in Europe/Madrid).
        public var seen: String
        public var published: String?
        public var publishedDisplay: String?
        public var link: String?
        /// Geodesic metres (cm) and initial bearing (0.1°) from the query position, when given.
        public var distanceMetres: Double?
        public var bearing: Double?
        /// The position of an incident that is a point.
        public var location: Location?

        public struct Location: Encodable, Sendable {
            public var latitude: Double
            public var longitude: Double
        }

        public init(_ hit: IncidentQuery.Hit) {
            let i = hit.incident
            id = i.id
            source = i.source
            type = i.type?.rawValue
            typeName = i.type?.spanishName
            categories = i.categories
            title = i.title
            description = i.description
            seen = IncidentsAnswer.iso(i.seen)
            published = i.published.map(IncidentsAnswer.iso)
            publishedDisplay = i.published.map { IncidentDates.display($0) }
            link = i.link
            distanceMetres = hit.distanceMetres.map { ($0 * 100).rounded() / 100 }
            bearing = hit.bearing.map { ($0 * 10).rounded() / 10 }
            if case .point(let p)? = i.geometry { location = Location(latitude: p.y, longitude: p.x) }
        }
    }

    /// - Parameters:
    ///   - hits: the query's answer, already cut to the requested count.
    ///   - held: how many incidents the store holds; `refreshedAt`: its last refresh.
    public init(_ hits: [IncidentQuery.Hit], held: Int, refreshedAt: Date?, now: Date = Date()) {
        self.held = held
        count = hits.count
        status = Self.status(held: held, refreshedAt: refreshedAt, now: now)
        self.refreshedAt = refreshedAt.map(Self.iso)
        ageSeconds = refreshedAt.map { Int(now.timeIntervalSince($0)) }
        incidents = hits.map(Item.init)
    }

    /// How much is held and how old it is, in words.
    public static func status(held count: Int, refreshedAt: Date?, now: Date = Date()) -> String {
        guard let refreshedAt else { return "no incidents held yet (run geoq incidents refresh --feed URL)" }
        let minutes = Int(now.timeIntervalSince(refreshedAt) / 60)
        let ago =
            minutes < 1
            ? "just now" : minutes < 120 ? "\(minutes) min ago" : "\(minutes / 60) h \(minutes % 60) min ago"
        return
            "\(count) incident\(count == 1 ? "" : "s") held, refreshed \(IncidentDates.display(refreshedAt)) (\(ago))"
    }

    /// An instant as ISO 8601 in UTC.
    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    /// A `since` bound: ISO 8601 with an offset, or the Madrid wall clock without one
    /// (`2026-11-20T00:00`), or a bare date (midnight); nil when it is none of these.
    public static func since(_ text: String) -> Date? {
        guard let clock = try? CityClock(timeZoneIdentifier: "Europe/Madrid") else { return nil }
        if let date = try? clock.parse(text) { return date }
        return text.count == 10 ? try? clock.parse(text + "T00:00") : nil
    }
}
