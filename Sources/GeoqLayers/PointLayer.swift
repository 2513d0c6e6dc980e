import GeoqCore
import GeoqFallas
import GeoqNearby

/// A layer of point features (fallas, car parks, hospitals, …) indexed for nearest-N queries
/// with geodesic distances. Immutable, so it can be shared between threads.
public struct PointLayer: Sendable {
    public let name: String
    public let title: String
    public let features: [Feature]
    /// The position each feature is ranked by: a Point as it is; a MultiPoint by its first
    /// point (Valencia's older hospital export wraps each hospital's single point in one).
    public let positions: [Point]
    /// Each feature's category, when the layer has a category field.
    public let categories: [Category?]
    public let index: PointIndex
    public let approximation: String?
    /// The type `geoq services` groups this layer under, if it is a service layer.
    public let serviceType: String?
    public let links: [LayerSpec.Link]
    /// How categories were read (`falla-sections`, …), from the catalog entry.
    public let categoryScheme: String?

    /// A category as shown to people, with its place in the layer's order.
    public struct Category: Hashable, Sendable, Comparable {
        public var code: String
        public var words: String
        public var rank: Int

        public static func < (a: Category, b: Category) -> Bool {
            a.rank != b.rank ? a.rank < b.rank : a.words < b.words
        }

        /// Whether a user's filter names this category, by code or words, ignoring case.
        public func matches(_ filter: String) -> Bool {
            let f = filter.lowercased()
            return f == code.lowercased() || f == words.lowercased()
        }
    }

    /// Builds the layer; every feature must be a Point or a MultiPoint.
    public init(
        name: String, title: String, features: [Feature], spec: LayerSpec?, approximation: String?, source: String
    ) throws(LayerError) {
        var positions: [Point] = []
        positions.reserveCapacity(features.count)
        for (i, f) in features.enumerated() {
            switch f.geometry {
            case .point(let p): positions.append(p)
            case .multiPoint(let ps) where !ps.isEmpty: positions.append(ps[0])
            default:
                throw .notPoints(
                    path: source, feature: LayerLoader.describe(f, at: i), geometryType: f.geometry.typeName)
            }
        }
        self.name = name
        self.title = title
        self.features = features
        self.positions = positions
        self.categories = features.map { Self.category(of: $0, spec: spec) }
        self.index = PointIndex(positions)
        self.approximation = approximation
        self.serviceType = spec?.serviceType
        self.links = spec?.links ?? []
        self.categoryScheme = spec?.categoryScheme
    }

    static func category(of feature: Feature, spec: LayerSpec?) -> Category? {
        guard let field = spec?.categoryField, let code = feature.properties[field]?.text, !code.isEmpty else {
            return nil
        }
        switch spec?.categoryScheme {
        case "falla-sections", "falla-sections-infantil":
            let c = FallaCategory(code: code, infantil: spec?.categoryScheme == "falla-sections-infantil")
            return Category(code: c.code, words: c.words, rank: c.rank)
        default:
            return Category(code: code, words: code, rank: 0)
        }
    }
}
