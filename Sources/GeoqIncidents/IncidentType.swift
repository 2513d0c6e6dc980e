/// The kinds of incident Zaragoza publishes, one feed each, chosen by the feed URL's `id`
/// parameter (SPEC §3).
public enum IncidentType: Int, CaseIterable, Codable, Hashable, Sendable, Comparable {
    case waterCut = 0
    case trafficCut = 1
    case importantDisruption = 2
    /// The feed of every incident (its items keep the type of a more specific feed when known).
    case all = 3
    case tramDisruption = 4
    case publicTransport = 5

    public static func < (a: IncidentType, b: IncidentType) -> Bool { a.rawValue < b.rawValue }

    /// The city's name for the type.
    public var spanishName: String {
        switch self {
        case .waterCut: "Corte de agua"
        case .trafficCut: "Corte de tráfico"
        case .importantDisruption: "Afección importante"
        case .all: "Todas las incidencias"
        case .tramDisruption: "Afección importante de tranvía"
        case .publicTransport: "Afección al transporte público"
        }
    }

    /// A short code for the command line and JSON: `water-cut`, `traffic-cut`, ...
    public var code: String {
        switch self {
        case .waterCut: "water-cut"
        case .trafficCut: "traffic-cut"
        case .importantDisruption: "important-disruption"
        case .all: "all"
        case .tramDisruption: "tram"
        case .publicTransport: "public-transport"
        }
    }

    /// From a number (`1`) or a code (`traffic-cut`).
    public init?(argument: String) {
        if let n = Int(argument), let type = IncidentType(rawValue: n) {
            self = type
        } else if let type = IncidentType.allCases.first(where: { $0.code == argument.lowercased() }) {
            self = type
        } else {
            return nil
        }
    }

    /// The type a feed URL selects with its `id` query parameter (`...?id=1`), if any.
    public init?(feedURL: String) {
        guard let query = feedURL.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == "id", let n = Int(parts[1]), let type = IncidentType(rawValue: n) {
                self = type
                return
            }
        }
        return nil
    }
}
