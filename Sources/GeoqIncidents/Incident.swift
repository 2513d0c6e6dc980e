import Foundation
import GeoqCore

/// One incident of a feed, cleaned and located (WGS84, x = longitude), keyed by
/// (``source``, ``id``).
public struct Incident: Hashable, Sendable {
    /// Unique within its source: the entry's guid, else its link, else a digest of its title,
    /// date and geometry (see ``IncidentBuilder``).
    public var id: String
    /// The feed it came from (see ``IncidentSource``).
    public var source: String
    /// Zaragoza's type (SPEC §3) when the feed is one of the city's, or was given one; else nil.
    public var type: IncidentType?
    /// The entry's own categories (`<category>` in RSS and Atom), else the type's name; may be
    /// empty.
    public var categories: [String]
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
        id: String, source: String, type: IncidentType?, categories: [String], title: String, link: String?,
        published: Date?, description: String, geometry: Geometry?, seen: Date
    ) {
        self.id = id
        self.source = source
        self.type = type
        self.categories = categories
        self.title = title
        self.link = link
        self.published = published
        self.description = description
        self.geometry = geometry
        self.seen = seen
    }
}

extension Incident {
    /// The incident as a store feature: geometry (an empty MultiPoint when it has none) and
    /// properties `source`, `type` (when known), `categories` (one a line), `link`, `published`,
    /// `description`, `seen` (ISO 8601 UTC).
    public var feature: Feature {
        var properties = [String: PropertyValue](minimumCapacity: 7)  // no growth for the last three
        properties["source"] = .string(source)
        properties["categories"] = .string(categories.joined(separator: "\n"))
        properties["description"] = .string(description)
        properties["seen"] = .string(Self.iso(seen))
        if let type { properties["type"] = .number(Double(type.rawValue)) }
        if let link { properties["link"] = .string(link) }
        if let published { properties["published"] = .string(Self.iso(published)) }
        return Feature(id: id, name: title, geometry: geometry ?? .multiPoint([]), properties: properties)
    }

    /// Reads back a stored feature; nil when it is not one of ours.
    ///
    /// A feature written before incidents had sources and categories has only a `type`: it
    /// reads as an incident of Zaragoza's feed of that type (``IncidentSource/legacy(type:)``),
    /// categorised by the type's name, so that nothing already held is lost.
    public init?(feature: Feature) {
        var type: IncidentType?
        if case .number(let n)? = feature.properties["type"] {
            guard let known = IncidentType(rawValue: Int(n)) else { return nil }
            type = known
        }
        let storedSource = feature.properties["source"]?.text.flatMap { $0.isEmpty ? nil : $0 }
        guard let source = storedSource ?? type.map(IncidentSource.legacy(type:)),
            let seen = feature.properties["seen"]?.text.flatMap(Self.date)
        else { return nil }
        let categories: [String]
        if let stored = feature.properties["categories"]?.text {
            // Most incidents have one category: no line break, nothing to split.
            categories =
                stored.utf8.contains(0x0A)
                ? stored.split(separator: "\n").map(String.init) : stored.isEmpty ? [] : [stored]
        } else {
            categories = type.map { [$0.spanishName] } ?? []
        }
        var geometry: Geometry? = feature.geometry
        if case .multiPoint(let points) = feature.geometry, points.isEmpty { geometry = nil }
        self.init(
            id: feature.id, source: source, type: type, categories: categories, title: feature.name ?? "",
            link: feature.properties["link"]?.text,
            published: feature.properties["published"]?.text.flatMap(Self.date),
            description: feature.properties["description"]?.text ?? IncidentDescription.empty, geometry: geometry,
            seen: seen)
    }

    // The layer is read and written 10,000 features at a time: see StoreTimestamp.
    static func iso(_ date: Date) -> String { StoreTimestamp.text(date) }

    static func date(_ text: String) -> Date? { StoreTimestamp.date(text) }
}
