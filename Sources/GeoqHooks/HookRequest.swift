import Foundation

/// A hook as asked for (`POST /v1/hooks`, `geoq hooks add`), checked before it is stored.
public struct HookRequest: Codable, Sendable, Hashable {
    /// The event kinds a hook may ask for.
    public static let eventKinds = ["enter", "exit", "dwell", "parked", "left"]

    public var url: String
    public var layer: String?
    public var events: [String]?
    /// Each device's events in order (see `Hook.ordered`); absent: false.
    public var ordered: Bool?

    public init(url: String, layer: String? = nil, events: [String]? = nil, ordered: Bool? = nil) {
        self.url = url
        self.layer = layer
        self.events = events
        self.ordered = ordered
    }

    /// Why the request cannot become a hook (nil when it can): the URL must be absolute http,
    /// https or redis (``RedisStreamAddress``) with a host; the layer one of `layers`; each event
    /// one of ``eventKinds``.
    public func problem(layers: Set<String>) -> (field: String, message: String)? {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
            ["http", "https", "redis"].contains(scheme), let host = parts.host, !host.isEmpty
        else {
            return ("url", "url must be an absolute http, https or redis URL with a host, got \"\(url)\"")
        }
        do { _ = try RedisStreamAddress(url) } catch { return ("url", error.message) }
        if let layer, !layers.contains(layer) {
            return ("layer", "unknown layer \"\(layer)\"; known: \(layers.sorted().joined(separator: ", "))")
        }
        if let events {
            if events.isEmpty { return ("events", "events must name at least one kind when given") }
            if let bad = events.first(where: { !Self.eventKinds.contains($0) }) {
                return (
                    "events", "unknown event \"\(bad)\"; known: \(Self.eventKinds.joined(separator: ", "))"
                )
            }
        }
        return nil
    }
}
