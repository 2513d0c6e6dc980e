import Foundation

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

    /// The address of Zaragoza's feed of this type (SPEC §3).
    public var zaragozaFeedURL: String { "https://www.zaragoza.es/sede/servicio/incidencia?id=\(rawValue)" }

    /// The type one of Zaragoza's feed addresses selects with its `id` query parameter
    /// (`https://www.zaragoza.es/...?id=1`); nil for any other address, where `id` means
    /// something else.
    public init?(feedURL: String) {
        guard let components = URLComponents(string: feedURL), let host = components.host?.lowercased(),
            host == "zaragoza.es" || host.hasSuffix(".zaragoza.es"),
            let id = components.queryItems?.first(where: { $0.name == "id" })?.value,
            let n = Int(id), let type = IncidentType(rawValue: n)
        else { return nil }
        self = type
    }
}
