import Foundation

/// Where incidents come from: each feed is a source, named by the user (`--source`) or after
/// its address. Incidents are keyed by (source, id), and refreshing one source never touches
/// another's.
public enum IncidentSource {
    /// A readable name that stays the same from one refresh to the next:
    /// - an http(s) URL: host (without `www.`, with a port when one is given), path (without a
    ///   trailing `/`) and the `id` query parameter when there is one (Zaragoza selects its feeds
    ///   with it); other parameters are left out, as they are often tokens or cache busters:
    ///   `https://www.zaragoza.es/sede/servicio/incidencia?id=1` ->
    ///   `zaragoza.es/sede/servicio/incidencia?id=1`;
    /// - a file (a path or a `file:` URL): its name without the extension:
    ///   `/tmp/cortes.xml` -> `cortes`.
    public static func name(forFeed feed: String) -> String {
        if let components = URLComponents(string: feed), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", var host = components.host?.lowercased(), !host.isEmpty
        {
            if host.hasPrefix("www.") { host.removeFirst(4) }
            var name = host + (components.port.map { ":\($0)" } ?? "")
            var path = components.path
            while path.hasSuffix("/") { path.removeLast() }
            name += path
            if let id = components.queryItems?.first(where: { $0.name == "id" })?.value, !id.isEmpty {
                name += "?id=\(id)"
            }
            return name
        }
        let path = feed.hasPrefix("file:") ? (URL(string: feed)?.path ?? feed) : feed
        let file = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return file.isEmpty ? feed : file
    }

    /// The source of an incident stored before incidents had sources: Zaragoza's feed of its
    /// type, the only feeds geoq then read by name.
    public static func legacy(type: IncidentType) -> String { name(forFeed: type.zaragozaFeedURL) }
}
