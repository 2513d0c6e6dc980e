import GeoqCore
import GeoqNearby
import GeoqSchedule

/// Answers which-sector questions against one layer.
///
/// The containment test is exact (``IndexedPolygon``, GEOS-compatible covers semantics).
/// The nearest edge is chosen in a local WGS84 plane at the query's latitude, and its
/// distance is then measured on the ellipsoid by the geodesic solver given (in geoq,
/// ``GeoqNearby/EllipsoidGeodesic``: a closed form within 0.1 mm of Karney's for the short lines
/// of a city, Karney's algorithm (GeoqCore's ``KarneyGeodesic``) beyond).
///
/// Cost: a point inside allocates only its answer; a point outside also searches for the
/// nearest feature, and for the swapped-numbers hint only when the swapped numbers fall in
/// the box of this layer or of one of the `swapCandidates` (see ``swapCandidateExtents``).
public struct SectorLookup: Sendable {
    public let layer: Layer
    /// Measures the distance from the query to the nearest edge point.
    public let geodesic: any GeodesicSolving
    /// The bounding boxes of the layers `swapCandidates` may give to ``answer(for:language:swapCandidates:)``,
    /// when the caller knows them: swapped numbers outside all of them (and outside this layer)
    /// get no hint without asking for those layers. Nil when not known: they are asked for
    /// whenever the swapped numbers are a valid position outside this layer.
    public let swapCandidateExtents: [BoundingBox]?
    /// `geodesic` when it is the fast solver: called directly, and for the distance alone.
    let ellipsoid: EllipsoidGeodesic?
    /// The extent of `layer`.
    let extent: BoundingBox

    /// - Parameter swapCandidateExtents: see ``swapCandidateExtents``; a box too few there
    ///   loses hints, so give nil rather than an incomplete list.
    public init(layer: Layer, geodesic: any GeodesicSolving, swapCandidateExtents: [BoundingBox]? = nil) {
        self.layer = layer
        self.geodesic = geodesic
        self.swapCandidateExtents = swapCandidateExtents
        self.ellipsoid = geodesic as? EllipsoidGeodesic
        self.extent = layer.index.boundingBox
    }

    /// The answer for `point`, which must already be a valid WGS84 position.
    /// - Parameter language: the language of the layer's approximation note.
    /// - Parameter swapCandidates: more layers to search with latitude and longitude exchanged
    ///   when the point is outside every feature (the queried layer is always searched).
    ///   Called only in that case, when the swapped numbers are a valid position that may lie
    ///   in one of them, and at most once.
    public func answer(
        for point: Point, language: Language = .en, swapCandidates: () -> [Layer] = { [] }
    ) -> SectorAnswer {
        let metric = LocalMetric(wgs84AtLatitude: point.latitude)
        var inside: [SectorAnswer.Match] = []
        var inItemOrder = true
        var previous = -1
        // `layer.index` in place throughout: a local copy of the index would retain and release
        // each of its arrays on every answer.
        layer.index.forEachCovering(point) { item, location in
            inItemOrder = inItemOrder && item > previous
            previous = item
            let edge = layer.index.nearestBoundaryPoint(toCovered: point, item: item, metric: metric)
            inside.append(match(item, location: location, edgePoint: edge.point, from: point))
        }
        if !inItemOrder {
            // Overlapping features found out of layer order (rare): answer in layer order.
            inside = layer.index.covering(point).map { item in
                let edge = layer.index.nearestBoundaryPoint(to: point, item: item, metric: metric)
                return match(
                    item, location: layer.index.locate(point, item: item), edgePoint: edge.point, from: point)
            }
        }
        var nearest: SectorAnswer.Match?
        var hint: SectorAnswer.SwapHint?
        if inside.isEmpty {
            if let hit = layer.index.nearestItemByBoundary(to: point, metric: metric) {
                nearest = match(hit.item, location: .exterior, edgePoint: hit.point, from: point)
            }
            hint = swapHint(for: point, others: swapCandidates)
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
        let metres =
            ellipsoid?.distance(from: point, to: edgePoint)
            ?? geodesic.distanceAndBearing(from: point, to: edgePoint).distance
        return layer.features.withUnsafeBufferPointer { features in
            SectorAnswer.Match(
                id: features[item].id, name: features[item].name, location: location.rawValue,
                distanceToEdgeMetres: (metres * 100).rounded() / 100,
                nearestEdgePoint: .init(latitude: edgePoint.latitude, longitude: edgePoint.longitude))
        }
    }

    /// If the swapped numbers form a valid position inside this layer or one of `others`, say
    /// where. `others` is asked for only when the swapped point is valid, outside this layer,
    /// and (when ``swapCandidateExtents`` are known) inside one of their boxes.
    func swapHint(for point: Point, others: () -> [Layer]) -> SectorAnswer.SwapHint? {
        guard point.x != point.y, let swapped = try? point.swapped.validatedGeographic() else { return nil }
        if extent.contains(swapped), let hint = swapHint(at: swapped, in: layer) { return hint }
        if let extents = swapCandidateExtents, !extents.contains(where: { $0.contains(swapped) }) { return nil }
        for candidate in others() where candidate.name != layer.name && !candidate.isTimeZoneLayer {
            if let hint = swapHint(at: swapped, in: candidate) { return hint }
        }
        return nil
    }

    func swapHint(at swapped: Point, in candidate: Layer) -> SectorAnswer.SwapHint? {
        guard candidate.index.boundingBox.contains(swapped) else { return nil }
        let items = candidate.index.covering(swapped)
        guard !items.isEmpty else { return nil }
        return SectorAnswer.SwapHint(
            latitude: swapped.latitude, longitude: swapped.longitude, layer: candidate.name,
            features: items.map { candidate.features[$0].name ?? candidate.features[$0].id })
    }
}
