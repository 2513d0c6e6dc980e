import Foundation
import GeoqCore

/// Turns the entries of one feed, in the feed's order, into incidents of one source, each with
/// an id unique within that source.
///
/// The id is the entry's guid, else its link, else ``IncidentDigest`` of its title, date and
/// geometry. Two entries with the same guid (or link) are the same entry told twice; two
/// different entries with no guid nor link and the same title, date and geometry would share a
/// digest, so the second gets `-2`, the third `-3` (stable while the feed keeps its order).
public struct IncidentBuilder: Sendable {
    public let source: String
    public let type: IncidentType?
    public let seen: Date
    private var digestsGiven: [String: Int] = [:]

    public init(source: String, type: IncidentType?, seen: Date) {
        self.source = source
        self.type = type
        self.seen = seen
    }

    /// One entry as an incident; `geometry` is its location already in WGS84; `categories` its
    /// own `<category>` values as written.
    public mutating func incident(
        title: String?, guid: String?, link: String?, published: Date?, html: String?, geometry: Geometry?,
        categories: [String] = []
    ) -> Incident {
        let title = (title ?? "").trimmingWhiteSpace()
        let guid = guid?.trimmingWhiteSpace()
        let link = link?.trimmingWhiteSpace()
        let id: String
        if let guid, !guid.isEmpty {
            id = guid
        } else if let link, !link.isEmpty {
            id = link
        } else {
            let digest = IncidentDigest.id(title: title, published: published, geometry: geometry)
            let given = digestsGiven[digest, default: 0] + 1
            digestsGiven[digest] = given
            id = given == 1 ? digest : "\(digest)-\(given)"
        }
        var own = Self.cleaned(categories)
        if own.isEmpty, let type { own = [type.spanishName] }
        return Incident(
            id: id, source: source, type: type, categories: own, title: title.isEmpty ? "(sin título)" : title,
            link: link.flatMap { $0.isEmpty ? nil : $0 }, published: published,
            description: IncidentDescription.clean(html), geometry: geometry, seen: seen)
    }

    /// Categories on one line each, blank runs collapsed, empty ones and repeats dropped.
    static func cleaned(_ categories: [String]) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for category in categories {
            let words = category.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
            if !words.isEmpty, seen.insert(words).inserted { out.append(words) }
        }
        return out
    }
}
