import Foundation
import GeoqCore

/// One incident of a city feed, cleaned and located (WGS84, x = longitude).
public struct Incident: Hashable, Sendable {
    /// The item's guid, else its link, else a key made from its title and date.
    public var id: String
    public var type: IncidentType
    /// Usually the street.
    public var title: String
    /// The official page.
    public var link: String?
    /// When the notice was posted (not when the works happen).
    public var published: Date?
    /// Plain text (see ``IncidentDescription``).
    public var description: String
    /// Nil when the item had no usable location.
    public var geometry: Geometry?
    /// When a refresh last saw the incident in its feed.
    public var seen: Date

    public init(
        id: String, type: IncidentType, title: String, link: String?, published: Date?, description: String,
        geometry: Geometry?, seen: Date
    ) {
        self.id = id
        self.type = type
        self.title = title
        self.link = link
        self.published = published
        self.description = description
        self.geometry = geometry
        self.seen = seen
    }

    /// A feed item as an incident; `geometry` is the item's location already in WGS84.
    public init(
        title: String?, guid: String?, link: String?, published: Date?, html: String?, geometry: Geometry?,
        type: IncidentType, seen: Date
    ) {
        let title = (title ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let key =
            guid.flatMap { $0.isEmpty ? nil : $0 } ?? link.flatMap { $0.isEmpty ? nil : $0 }
            ?? "\(title)|\(published.map { String(Int($0.timeIntervalSince1970)) } ?? "")"
        self.init(
            id: key, type: type, title: title.isEmpty ? "(sin título)" : title, link: link, published: published,
            description: IncidentDescription.clean(html), geometry: geometry, seen: seen)
    }
}

extension Incident {
    /// The incident as a store feature: geometry (an empty MultiPoint when it has none) and
    /// properties `type`, `link`, `published`, `description`, `seen` (ISO 8601 UTC).
    public var feature: Feature {
        var properties: [String: PropertyValue] = [
            "type": .number(Double(type.rawValue)), "description": .string(description),
            "seen": .string(Self.iso(seen)),
        ]
        if let link { properties["link"] = .string(link) }
        if let published { properties["published"] = .string(Self.iso(published)) }
        return Feature(id: id, name: title, geometry: geometry ?? .multiPoint([]), properties: properties)
    }

    /// Reads back a stored feature; nil when it is not one of ours.
    public init?(feature: Feature) {
        guard case .number(let n)? = feature.properties["type"], let type = IncidentType(rawValue: Int(n)),
            let seen = feature.properties["seen"]?.text.flatMap(Self.date)
        else { return nil }
        var geometry: Geometry? = feature.geometry
        if case .multiPoint(let points) = feature.geometry, points.isEmpty { geometry = nil }
        self.init(
            id: feature.id, type: type, title: feature.name ?? "", link: feature.properties["link"]?.text,
            published: feature.properties["published"]?.text.flatMap(Self.date),
            description: feature.properties["description"]?.text ?? IncidentDescription.empty, geometry: geometry,
            seen: seen)
    }

    // Date.ISO8601FormatStyle is a value (Sendable, no formatter object per call): the layer is
    // read and written 10,000 features at a time.
    static func iso(_ date: Date) -> String { date.formatted(.iso8601) }

    static func date(_ text: String) -> Date? { try? Date(text, strategy: .iso8601) }
}
