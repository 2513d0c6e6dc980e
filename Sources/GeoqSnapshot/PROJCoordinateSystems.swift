import GeoqAPI
import GeoqCore
import GeoqPROJ
import Synchronization

/// The OGC API face's systems besides CRS84, through PROJ: Web Mercator (EPSG:3857), what web
/// maps draw in, and ETRS89 / UTM zone 30N (EPSG:25830), what the Spanish cities publish in.
///
/// PROJ's handles are not shareable: each system's two transformers (there and back) live in one
/// mutex, their one owner, made on first use; a request holds the lock only while it converts.
public final class PROJCoordinateSystems: OGCCoordinateSystems {
    /// URI → the definition PROJ reads.
    static let systems: [(uri: String, definition: String)] = [
        ("http://www.opengis.net/def/crs/EPSG/0/3857", "EPSG:3857"),
        ("http://www.opengis.net/def/crs/EPSG/0/25830", "EPSG:25830"),
    ]

    private let transformers = Mutex<[String: (to: CoordinateTransformer, from: CoordinateTransformer)]>([:])

    public init() {}

    public var offered: [String] { Self.systems.map(\.uri) }

    public func project(_ geometry: Geometry, to crs: String) -> Geometry? {
        guard let definition = Self.definition(crs) else { return nil }
        return transformers.withLock { made -> Geometry? in
            guard let pair = Self.pair(crs, definition, in: &made) else { return nil }
            return try? pair.to.transform(geometry)
        }
    }

    public func unproject(_ point: Point, from crs: String) -> Point? {
        guard let definition = Self.definition(crs) else { return nil }
        return transformers.withLock { made -> Point? in
            guard let pair = Self.pair(crs, definition, in: &made) else { return nil }
            return try? pair.from.transform(point)
        }
    }

    static func definition(_ crs: String) -> String? { systems.first { $0.uri == crs }?.definition }

    /// The transformers of `crs`, made on first use.
    private static func pair(
        _ crs: String, _ definition: String,
        in made: inout [String: (to: CoordinateTransformer, from: CoordinateTransformer)]
    ) -> (to: CoordinateTransformer, from: CoordinateTransformer)? {
        if let pair = made[crs] { return pair }
        let context = PROJContext()
        guard let to = try? CoordinateTransformer(context: context, from: "OGC:CRS84", to: definition),
            let from = try? CoordinateTransformer(context: context, from: definition, to: "OGC:CRS84")
        else { return nil }
        made[crs] = (to, from)
        return (to, from)
    }
}
