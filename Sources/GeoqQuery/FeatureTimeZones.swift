import Foundation
import GeoqCore

/// What makes a layer a time-zone layer: the attribute that holds each feature's IANA zone id,
/// and each feature's zone as the system's time-zone database knows it.
///
/// Built once with the layer (looking a zone up by name costs far more than a lookup pass), so
/// an answer only reads `zones[item]`.
public struct FeatureTimeZones: Sendable {
    /// The attribute holding the IANA id (the feature id where a feature lacks it).
    public let field: String
    /// Item `i` is feature `i`'s zone id.
    public let ids: [String]
    /// Item `i` is feature `i`'s zone, nil where the system's tzdata does not know `ids[i]`.
    public let zones: [TimeZone?]
    /// Each feature id's item (the first, should ids repeat).
    public let items: [String: Int]

    /// The zones of `features`, read from `field`.
    public init(features: [Feature], field: String) {
        self.field = field
        ids = features.map { $0.properties[field]?.text ?? $0.id }
        zones = ids.map { TimeZone(identifier: $0) }
        items = Dictionary(features.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The ids the system's time-zone database does not know, in layer order.
    public var unknownIDs: [String] { zip(ids, zones).compactMap { $1 == nil ? $0 : nil } }
}
