import Foundation
import GeoqCore
import GeoqIncidents

/// Which incidents to list, and in what order: nearest first when a position is given
/// (geodesic metres to the incident's point, or to the nearest point of its line or area),
/// else newest first. Each filter left empty lets everything through; a filter with several
/// values takes an incident that matches any of them.
public struct IncidentQuery: Sendable {
    public var types: Set<IncidentType>
    /// Source names, exactly as listed.
    public var sources: Set<String>
    /// Categories, compared without regard to letter case or accents ("corte de trafico"
    /// finds "Corte de tráfico").
    public var categories: [String]
    public var near: Point?
    public var withinMetres: Double?
    public var since: Date?

    public init(
        types: Set<IncidentType> = [], sources: Set<String> = [], categories: [String] = [], near: Point? = nil,
        withinMetres: Double? = nil, since: Date? = nil
    ) {
        self.types = types
        self.sources = sources
        self.categories = categories
        self.near = near
        self.withinMetres = withinMetres
        self.since = since
    }

    static func folded(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).folding(
            options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    func matches(_ incident: Incident, foldedCategories: Set<String>) -> Bool {
        if !types.isEmpty, !(incident.type.map(types.contains) ?? false) { return false }
        if !sources.isEmpty, !sources.contains(incident.source) { return false }
        if !foldedCategories.isEmpty,
            !incident.categories.contains(where: { foldedCategories.contains(Self.folded($0)) })
        {
            return false
        }
        if let since, (incident.published ?? incident.seen) < since { return false }
        return true
    }

    public struct Hit: Sendable {
        public var incident: Incident
        /// Metres from the query position (nil without one, or without a location).
        public var distanceMetres: Double?
        public var bearing: Double?
    }

    public func run(_ set: IncidentSet, geodesic: some GeodesicSolving) -> [Hit] {
        var hits: [Hit] = []
        let foldedCategories = Set(categories.map(Self.folded))
        for (i, incident) in set.incidents.enumerated() {
            guard matches(incident, foldedCategories: foldedCategories) else { continue }
            guard let near else {
                hits.append(Hit(incident: incident))
                continue
            }
            guard let target = set.nearestPoint(of: i, to: near) else {
                if withinMetres == nil { hits.append(Hit(incident: incident)) }
                continue
            }
            let r = geodesic.distanceAndBearing(from: near, to: target)
            if let withinMetres, r.distance > withinMetres { continue }
            hits.append(Hit(incident: incident, distanceMetres: r.distance, bearing: r.bearing))
        }
        if near != nil {
            hits.sort {
                ($0.distanceMetres ?? .infinity, $0.incident.source, $0.incident.id)
                    < ($1.distanceMetres ?? .infinity, $1.incident.source, $1.incident.id)
            }
        } else {
            hits.sort {
                let a = $0.incident.published ?? $0.incident.seen, b = $1.incident.published ?? $1.incident.seen
                return a != b ? a > b : ($0.incident.source, $0.incident.id) < ($1.incident.source, $1.incident.id)
            }
        }
        return hits
    }
}
