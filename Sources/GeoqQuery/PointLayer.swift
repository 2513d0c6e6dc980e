import Foundation
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
    /// Each feature's service type: its category's (``Scheme/serviceTypeByCategory``), else
    /// the layer's; nil for a layer that is not a service layer.
    public let serviceTypes: [String?]
    public let links: [Link]
    /// How categories were read (`falla-sections`, …).
    public let categoryScheme: String?
    /// Each feature's geo URI (RFC 5870, latitude first, 7 decimals at most), made once here
    /// rather than for every answer.
    public let geoURIs: [String]
    /// Each feature's map pin colour (the original app's: Especial red, Primera A green), for
    /// falla monuments; nil elsewhere.
    public let pins: [String?]

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

    /// How a point layer's features are categorised, typed and linked (in geoq, from the layer's
    /// catalog entry).
    public struct Scheme: Hashable, Sendable {
        /// The attribute that holds each feature's category code.
        public var categoryField: String?
        /// How codes become words and ranks: `falla-sections`, `falla-sections-infantil`, or nil
        /// for codes shown as they are.
        public var categoryScheme: String?
        /// The service type of every feature, for a service layer.
        public var serviceType: String?
        /// Service types by category code; features of other categories get ``serviceType``.
        public var serviceTypeByCategory: [String: String]?
        public var links: [Link]

        public init(
            categoryField: String? = nil, categoryScheme: String? = nil, serviceType: String? = nil,
            serviceTypeByCategory: [String: String]? = nil, links: [Link] = []
        ) {
            self.categoryField = categoryField
            self.categoryScheme = categoryScheme
            self.serviceType = serviceType
            self.serviceTypeByCategory = serviceTypeByCategory
            self.links = links
        }
    }

    /// Another layer whose features share ids with this one's (a falla's children's monument, its
    /// marquee), named in answers by ``as``.
    public struct Link: Codable, Hashable, Sendable {
        public var layer: String
        /// The name the linked feature goes by in answers (`childrensFalla`, `marquee`).
        public var `as`: String

        public init(layer: String, as name: String) {
            self.layer = layer
            self.as = name
        }
    }

    /// A feature that is neither a Point nor a non-empty MultiPoint.
    public struct NotAPoint: Error, Hashable, Sendable {
        /// Its position in `features` (0-based).
        public var featureIndex: Int
        public var geometryType: String
    }

    /// Builds the layer; every feature must be a Point or a non-empty MultiPoint.
    public init(
        name: String, title: String, features: [Feature], scheme: Scheme = Scheme(), approximation: String?
    ) throws(NotAPoint) {
        var positions: [Point] = []
        positions.reserveCapacity(features.count)
        for (i, f) in features.enumerated() {
            switch f.geometry {
            case .point(let p): positions.append(p)
            case .multiPoint(let ps) where !ps.isEmpty: positions.append(ps[0])
            default:
                throw NotAPoint(featureIndex: i, geometryType: f.geometry.typeName)
            }
        }
        self.name = name
        self.title = title
        self.features = features
        self.positions = positions
        self.categories = features.map { Self.category(of: $0, scheme: scheme) }
        self.index = PointIndex(positions)
        self.approximation = approximation
        self.serviceType = scheme.serviceType
        self.serviceTypes = categories.map { category in
            category.flatMap { scheme.serviceTypeByCategory?[$0.code] } ?? scheme.serviceType
        }
        self.links = scheme.links
        self.categoryScheme = scheme.categoryScheme
        self.geoURIs = positions.map { "geo:\(Self.coordinate($0.latitude)),\(Self.coordinate($0.longitude))" }
        self.pins = categories.map { category in
            scheme.categoryScheme == "falla-sections" ? category.map { FallaCategory(code: $0.code).pinColour() } : nil
        }
    }

    /// Up to 7 decimals (about 1 cm), without trailing zeros: `%.7f`, trimmed.
    static func coordinate(_ value: Double) -> String {
        var s = sevenDecimals(value)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// `%.7f` of `value`: the exact binary value rounded to 7 decimals, ties to even, as the C
    /// library prints it. A store's point layers format every coordinate once when they load,
    /// and `String(format:)` was most of their load time; this computes the digits directly.
    ///
    /// `value × 10⁷` is split into the rounded product `p` and its exact error `e` (one fused
    /// multiply-add), so the rounding decision sees the exact product: `p`'s fraction decides,
    /// unless it is exactly one half, when `e` does, and an exact tie goes to the even integer.
    /// Beyond 10¹¹ (no coordinate) it falls back to `String(format:)`.
    static func sevenDecimals(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e11 else { return String(format: "%.7f", value) }
        let p = value * 1e7
        let error = (-p).addingProduct(value, 1e7)  // exact: value × 10⁷ − p
        let whole = p.rounded(.down)
        let fraction = p - whole  // exact, and a multiple of p's spacing, which bounds |error| twice over
        let units: Double
        if fraction > 0.5 || (fraction == 0.5 && error > 0) {
            units = whole + 1
        } else if fraction < 0.5 || error < 0 {
            units = whole
        } else {
            units = whole.truncatingRemainder(dividingBy: 2) == 0 ? whole : whole + 1
        }
        let negative = value.sign == .minus
        let n = UInt64(abs(units))
        let integer = n / 10_000_000, decimals = n % 10_000_000
        var digits = String(decimals)
        digits = String(repeating: "0", count: 7 - digits.utf8.count) + digits
        return (negative ? "-" : "") + String(integer) + "." + digits
    }

    static func category(of feature: Feature, scheme: Scheme) -> Category? {
        guard let field = scheme.categoryField, let code = feature.properties[field]?.text, !code.isEmpty else {
            return nil
        }
        switch scheme.categoryScheme {
        case "falla-sections", "falla-sections-infantil":
            let c = FallaCategory(code: code, infantil: scheme.categoryScheme == "falla-sections-infantil")
            return Category(code: c.code, words: c.words, rank: c.rank)
        default:
            return Category(code: code, words: code, rank: 0)
        }
    }
}
