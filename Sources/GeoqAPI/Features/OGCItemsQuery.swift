import Foundation
import GeoqCore
import GeoqQuery
import GeoqSchedule

/// What `/ogc/collections/{id}/items` is asked, read and checked against its collection: the
/// parameters of OGC API - Features Part 1 (`limit`, `bbox`, `datetime`, paging by `offset`),
/// the selections pygeoapi and tipg users expect (`properties`, `sortby`, `skipGeometry`, one
/// `PROPERTY=VALUE` filter per queryable), and `f` and `lang`. Any other parameter is a 400,
/// as the standard allows, so that a typo is never read as "no filter".
public struct OGCItemsQuery: Sendable {
    /// Features a page may hold at most, and by default.
    public static let maxLimit = 10_000
    public static let defaultLimit = 10

    public var limit = defaultLimit
    /// Features skipped before the page (the `next` link's paging).
    public var offset = 0
    /// Longitude and latitude boxes (two when the box crosses the antimeridian): a feature is
    /// kept when its geometry meets one of them (``Geometry/intersects(_:)``).
    public var boxes: [BoundingBox]?
    /// The instants asked for, ends included; nil for an open end.
    public var interval: (start: Date?, end: Date?)?
    /// The properties to answer with, in the order asked (nil: all).
    public var properties: [String]?
    /// The sort keys, first first.
    public var sortKeys: [(property: String, descending: Bool)] = []
    /// `PROPERTY=VALUE` filters, all of which a feature must pass.
    public var filters: [(property: String, value: String)] = []
    public var skipGeometry = false
    /// The CRS of the answer's coordinates (nil: CRS84).
    public var crs: String?
    /// With `bbox-crs`, the box as given in that CRS: a feature must meet it there (`boxes`
    /// then hold its bounds in degrees, to choose the candidates).
    public var projectedBox: (crs: String, box: BoundingBox)?

    /// The parameters every items request may carry besides the collection's queryables.
    public static let parameters: Set<String> = [
        "f", "lang", "limit", "offset", "bbox", "bbox-crs", "crs", "datetime", "properties", "sortby", "skipGeometry",
    ]

    public init() {}

    /// `query` read for `collection`; `systems` are the CRSs `crs` and `bbox-crs` may name.
    public init(
        _ query: QueryParameters, collection: OGCCollection, systems: any OGCCoordinateSystems = CRS84Only()
    ) throws(Problem) {
        let queryables = Set(collection.queryables.map(\.name))
        try query.allowOnly(Self.parameters.union(queryables))
        limit = try query.integer("limit", default: Self.defaultLimit, in: 1...Self.maxLimit)
        offset = try query.integer("offset", default: 0, in: 0...Int(Int32.max))
        crs = try Self.crs(query, "crs", systems)
        if let boxCRS = try Self.crs(query, "bbox-crs", systems) {
            guard let box = try Self.projectedBox(query) else {
                throw .invalid(
                    "bbox-crs",
                    LocalizedText(
                        es: "bbox-crs necesita bbox", eu: "bbox-crs-k bbox behar du", en: "bbox-crs needs a bbox"))
            }
            projectedBox = (boxCRS, box)
            boxes = try Self.degrees(of: box, in: boxCRS, systems)
        } else {
            boxes = try Self.boxes(query)
        }
        interval = try Self.interval(query)
        if let text = try query.value("properties") {
            let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            for name in names where !queryables.contains(name) {
                throw Self.unknownProperty(name, parameter: "properties", known: queryables)
            }
            properties = names
        }
        if let text = try query.value("sortby") {
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                var name = Substring(item)
                var descending = false
                if let sign = name.first, sign == "-" || sign == "+" {
                    descending = sign == "-"
                    name = name.dropFirst()
                }
                guard queryables.contains(String(name)) else {
                    throw Self.unknownProperty(String(name), parameter: "sortby", known: queryables)
                }
                sortKeys.append((String(name), descending))
            }
        }
        skipGeometry = try query.flag("skipGeometry")
        for (name, value) in query.pairs where queryables.contains(name) && !Self.parameters.contains(name) {
            _ = try query.value(name)  // given once
            filters.append((name, value))
        }
    }

    /// The indices of `collection`'s features that match, in the order asked (the layer's
    /// order, else by the sort keys with the layer's order breaking ties).
    public func matches(in collection: OGCCollection, systems: any OGCCoordinateSystems = CRS84Only()) -> [Int] {
        var kept: [Int] = []
        for index in collection.features.indices {
            let feature = collection.features[index]
            if let boxes {
                guard !feature.geometry.isEmpty, boxes.contains(where: { feature.geometry.intersects($0) }) else {
                    continue
                }
            }
            if let projectedBox {
                guard let projected = systems.project(feature.geometry, to: projectedBox.crs),
                    projected.intersects(projectedBox.box)
                else { continue }
            }
            if let interval, collection.isTemporal {
                guard let instant = collection.instants[index],
                    interval.start.map({ instant >= $0 }) ?? true, interval.end.map({ instant <= $0 }) ?? true
                else { continue }
            }
            if !filters.allSatisfy({ Self.property($0.property, of: feature).matches($0.value) }) { continue }
            kept.append(index)
        }
        guard !sortKeys.isEmpty else { return kept }
        return kept.sorted { a, b in
            for key in sortKeys {
                let (x, y) = (
                    Self.property(key.property, of: collection.features[a]),
                    Self.property(key.property, of: collection.features[b])
                )
                if x == y { continue }
                return key.descending ? Self.precedes(y, x) : Self.precedes(x, y)
            }
            return a < b
        }
    }

    /// A feature's property as answered: its source attribute, else its name for `name`.
    static func property(_ name: String, of feature: Feature) -> PropertyValue {
        if let value = feature.properties[name] { return value }
        if name == "name", let text = feature.name { return .string(text) }
        return .null
    }

    /// The sort order: numbers by value, then text by code point, then booleans, null last (in
    /// both directions the nulls stay last, as SQL's NULLS LAST).
    static func precedes(_ a: PropertyValue, _ b: PropertyValue) -> Bool {
        func rank(_ value: PropertyValue) -> Int {
            switch value {
            case .number: 0
            case .string: 1
            case .bool: 2
            case .null: 3
            }
        }
        switch (a, b) {
        case (.number(let x), .number(let y)): return x < y
        case (.string(let x), .string(let y)): return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
        case (.bool(let x), .bool(let y)): return !x && y
        default: return rank(a) < rank(b)
        }
    }

    /// `bbox=west,south,east,north` (or six numbers, the heights ignored), longitude first; a
    /// west greater than east crosses the antimeridian, as the standard says.
    static func boxes(_ query: QueryParameters) throws(Problem) -> [BoundingBox]? {
        guard let text = try query.value("bbox") else { return nil }
        let meaning = LocalizedText(
            es: "oeste,sur,este,norte en grados", eu: "mendebaldea,hegoaldea,ekialdea,iparraldea gradutan",
            en: "west,south,east,north in degrees")
        let shown = QueryParameters.shown(text)
        let numbers = try QueryParameters.numbers(
            text, parameter: "bbox", counts: [4, 6],
            shape: LocalizedText(
                es: "cuatro números (\(meaning.es)) o seis con alturas",
                eu: "lau zenbaki (\(meaning.eu)) edo sei altuerekin",
                en: "four numbers (\(meaning.en)) or six with heights"), meaning: meaning)
        let half = numbers.count / 2
        let (west, south, east, north) = (numbers[0], numbers[1], numbers[half], numbers[half + 1])
        guard [west, east].allSatisfy({ (-180...180).contains($0) }),
            [south, north].allSatisfy({ (-90...90).contains($0) }), south <= north
        else {
            throw .outOfRange(
                "bbox",
                LocalizedText(
                    es: "bbox: longitudes de -180 a 180, latitudes de -90 a 90 y sur <= norte; se recibió \"\(shown)\"",
                    eu:
                        "bbox: longitudeak -180 eta 180 artean, latitudeak -90 eta 90 artean eta hegoaldea <= iparraldea; \"\(shown)\" jaso da",
                    en:
                        "bbox: longitudes between -180 and 180, latitudes between -90 and 90, south <= north; got \"\(shown)\""
                ))
        }
        if west <= east { return [BoundingBox(minX: west, minY: south, maxX: east, maxY: north)] }
        return [
            BoundingBox(minX: west, minY: south, maxX: 180, maxY: north),
            BoundingBox(minX: -180, minY: south, maxX: east, maxY: north),
        ]
    }

    /// A CRS parameter (`crs` or `bbox-crs`): CRS84 (nil) or one of `systems`' URIs.
    static func crs(_ query: QueryParameters, _ name: String, _ systems: any OGCCoordinateSystems) throws(Problem)
        -> String?
    {
        let uri = try query.choice(
            name, of: [OGCFeatures.crs84] + systems.offered, default: OGCFeatures.crs84)
        guard uri != OGCFeatures.crs84 else { return nil }
        return uri
    }

    /// `bbox` as four numbers in another CRS (minimum x, minimum y, maximum x, maximum y).
    static func projectedBox(_ query: QueryParameters) throws(Problem) -> BoundingBox? {
        guard let text = try query.value("bbox") else { return nil }
        let meaning = LocalizedText(
            es: "x mínima, y mínima, x máxima, y máxima en bbox-crs",
            eu: "x minimoa, y minimoa, x maximoa, y maximoa bbox-crs-en",
            en: "minimum x, minimum y, maximum x, maximum y in bbox-crs")
        let numbers = try QueryParameters.numbers(
            text, parameter: "bbox", counts: [4],
            shape: LocalizedText(
                es: "cuatro números (\(meaning.es))", eu: "lau zenbaki (\(meaning.eu))",
                en: "four numbers (\(meaning.en))"), meaning: meaning)
        guard numbers[0] <= numbers[2], numbers[1] <= numbers[3] else {
            throw .invalid(
                "bbox",
                LocalizedText(
                    es: "bbox: la x mínima no puede superar la máxima, ni la y mínima la máxima",
                    eu: "bbox: x minimoa ezin da maximoa baino handiagoa izan, ezta y minimoa ere",
                    en: "bbox: the minimum x must not exceed the maximum, nor the minimum y"))
        }
        return BoundingBox(minX: numbers[0], minY: numbers[1], maxX: numbers[2], maxY: numbers[3])
    }

    /// Bounds in degrees of a box given in `crs`: its corners and the middles of its sides
    /// converted, widened by a tenth (a projected side is curved in degrees), so that every
    /// feature meeting the box is among the candidates; the exact test is made in `crs`.
    static func degrees(of box: BoundingBox, in crs: String, _ systems: any OGCCoordinateSystems) throws(Problem)
        -> [BoundingBox]
    {
        var corners: [Point] = []
        for x in [box.minX, box.center.x, box.maxX] {
            for y in [box.minY, box.center.y, box.maxY] {
                guard let point = systems.unproject(Point(x: x, y: y), from: crs) else {
                    throw .outOfRange(
                        "bbox",
                        LocalizedText(
                            es: "bbox sale del dominio de \(crs)", eu: "bbox \(crs)-ren eremutik kanpo dago",
                            en: "bbox leaves the domain of \(crs)"))
                }
                corners.append(point)
            }
        }
        let bounds = BoundingBox(around: corners)
        let (dx, dy) = (bounds.width / 10, bounds.height / 10)
        return [
            BoundingBox(
                minX: max(-180, bounds.minX - dx), minY: max(-90, bounds.minY - dy), maxX: min(180, bounds.maxX + dx),
                maxY: min(90, bounds.maxY + dy))
        ]
    }

    /// `datetime`: an instant, a date (the whole day, UTC), or an interval `start/end` where
    /// either end may be `..` or empty (open), as RFC 3339 and the standard write them.
    static func interval(_ query: QueryParameters) throws(Problem) -> (start: Date?, end: Date?)? {
        guard let text = try query.value("datetime") else { return nil }
        let shown = QueryParameters.shown(text)
        let invalid = Problem.invalid(
            "datetime",
            LocalizedText(
                es:
                    "datetime debe ser un instante RFC 3339 (2026-03-19T12:00:00Z), una fecha o un intervalo inicio/fin con .. para un extremo abierto; se recibió \"\(shown)\"",
                eu:
                    "datetime RFC 3339 une bat (2026-03-19T12:00:00Z), data bat edo hasiera/amaiera tarte bat izan behar da, .. mutur irekirako; \"\(shown)\" jaso da",
                en:
                    "datetime must be an RFC 3339 instant (2026-03-19T12:00:00Z), a date, or an interval start/end with .. for an open end, got \"\(shown)\""
            ))
        func day(_ text: Substring) -> (start: Date, end: Date)? {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                let start = InternetTime.parse("\(text)T00:00:00Z")
            else { return nil }
            return (start, start.addingTimeInterval(86_400 - 0.001))
        }
        func end(_ text: Substring, start: Bool) throws(Problem) -> Date? {
            if text.isEmpty || text == ".." { return nil }
            if let instant = InternetTime.parse(String(text)) { return instant }
            guard let whole = day(text) else { throw invalid }
            return start ? whole.start : whole.end
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            if let instant = InternetTime.parse(text) { return (instant, instant) }
            guard let whole = day(parts[0]) else { throw invalid }
            return (whole.start, whole.end)
        case 2:
            let (start, finish) = (try end(parts[0], start: true), try end(parts[1], start: false))
            if start == nil && finish == nil && parts[0].isEmpty && parts[1].isEmpty { throw invalid }
            if let start, let finish, start > finish { throw invalid }
            return (start, finish)
        default: throw invalid
        }
    }

    static func unknownProperty(_ name: String, parameter: String, known: Set<String>) -> Problem {
        let (list, shown) = (known.sorted().joined(separator: ", "), QueryParameters.shown(name))
        return .invalid(
            parameter,
            LocalizedText(
                es: "\(parameter): la colección no tiene la propiedad \"\(shown)\"; tiene \(list)",
                eu: "\(parameter): bildumak ez du \"\(shown)\" propietaterik; hauek ditu: \(list)",
                en: "\(parameter): the collection has no property \"\(shown)\"; it has \(list)"))
    }
}

extension PropertyValue {
    /// Whether a filter's text names this value: numbers by value (`type=2` matches 2.0),
    /// booleans as `true`/`false`, text exactly; null matches nothing.
    func matches(_ text: String) -> Bool {
        switch self {
        case .number(let number): return Double(text).map { $0 == number } ?? false
        case .string(let value): return value == text
        case .bool(let value): return text == (value ? "true" : "false")
        case .null: return false
        }
    }
}
