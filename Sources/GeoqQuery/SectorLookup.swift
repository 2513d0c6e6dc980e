import GeoqCore
import GeoqSchedule

/// Answers which-sector questions against one layer.
///
/// The containment test is exact (``IndexedPolygon``, GEOS-compatible covers semantics).
/// The nearest edge is chosen in a local WGS84 plane at the query's latitude, and its
/// distance is then measured on the ellipsoid by the geodesic solver given (in geoq, Karney's
/// algorithm through PROJ).
public struct SectorLookup: Sendable {
    public let layer: Layer
    /// Measures the distance from the query to the nearest edge point.
    public let geodesic: any GeodesicSolving

    public init(layer: Layer, geodesic: any GeodesicSolving) {
        self.layer = layer
        self.geodesic = geodesic
    }

    /// The answer for `point`, which must already be a valid WGS84 position.
    /// - Parameter language: the language of the layer's approximation note.
    /// - Parameter swapCandidates: more layers to search with latitude and longitude exchanged
    ///   when the point is outside every feature (the queried layer is always searched).
    ///   Called only in that case, and at most once.
    public func answer(
        for point: Point, language: Language = .en, swapCandidates: () -> [Layer] = { [] }
    ) -> SectorAnswer {
        let metric = LocalMetric(wgs84AtLatitude: point.latitude)
        var inside: [SectorAnswer.Match] = []
        for item in layer.index.covering(point) {
            let edge = layer.index.nearestBoundaryPoint(to: point, item: item, metric: metric)
            inside.append(
                match(item, location: layer.index.locate(point, item: item), edgePoint: edge.point, from: point))
        }
        var nearest: SectorAnswer.Match?
        var hint: SectorAnswer.SwapHint?
        if inside.isEmpty {
            if let hit = layer.index.nearestByBoundary(to: point, metric: metric, limit: 1).first {
                nearest = match(hit.item, location: .exterior, edgePoint: hit.point, from: point)
            }
            hint = swapHint(for: point, layers: [layer], others: swapCandidates)
        }
        return SectorAnswer(
            query: .init(latitude: point.latitude, longitude: point.longitude),
            layer: layer.name,
            approximate: layer.isApproximate,
            approximation: layer.approximation?[language],
            inside: inside,
            nearest: nearest,
            swapHint: hint)
    }

    func match(_ item: Int, location: Location, edgePoint: Point, from point: Point) -> SectorAnswer.Match {
        let feature = layer.features[item]
        let metres = geodesic.distanceAndBearing(from: point, to: edgePoint).distance
        return SectorAnswer.Match(
            id: feature.id, name: feature.name, location: location.rawValue,
            distanceToEdgeMetres: (metres * 100).rounded() / 100,
            nearestEdgePoint: .init(latitude: edgePoint.latitude, longitude: edgePoint.longitude))
    }

    /// If the swapped numbers form a valid position inside some layer, say where. The `others`
    /// are asked for only when the swapped point is valid and outside `layers`.
    func swapHint(for point: Point, layers: [Layer], others: () -> [Layer]) -> SectorAnswer.SwapHint? {
        guard point.x != point.y, let swapped = try? point.swapped.validatedGeographic() else { return nil }
        if let hint = swapHint(at: swapped, in: layers) { return hint }
        return swapHint(at: swapped, in: others().filter { $0.name != layer.name && !$0.isTimeZoneLayer })
    }

    func swapHint(at swapped: Point, in layers: [Layer]) -> SectorAnswer.SwapHint? {
        for candidate in layers {
            let items = candidate.index.covering(swapped)
            if !items.isEmpty {
                return SectorAnswer.SwapHint(
                    latitude: swapped.latitude, longitude: swapped.longitude, layer: candidate.name,
                    features: items.map { candidate.features[$0].name ?? candidate.features[$0].id })
            }
        }
        return nil
    }
}
