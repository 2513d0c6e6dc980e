import GeoqCore
import GeoqPROJ
import GeoqQuery
import Testing

/// The which-sector question over a layer made in the test: two 0.01° squares near the
/// equator, Alpha at longitudes 0–0.01 and Beta at 0.021–0.031, both at latitudes 0–0.01.
@Suite struct SectorLookupTests {
    static func layer(approximation: ApproximationNote? = nil) throws -> Layer {
        Layer(
            name: "squares", title: "Two squares",
            features: [
                Feature(id: "A", name: "Alpha", geometry: try rectangle(west: 0, south: 0, east: 0.01, north: 0.01)),
                Feature(
                    id: "B", name: "Beta", geometry: try rectangle(west: 0.021, south: 0, east: 0.031, north: 0.01)),
            ],
            approximation: approximation, source: "made in the test", sourceCRS: "EPSG:4326", notes: [])
    }

    @Test func insideAPolygonTheNearestEdgeAndItsDistance() throws {
        let lookup = SectorLookup(layer: try Self.layer(), geodesic: FlatWorld())
        let answer = lookup.answer(for: Point(latitude: 0.005, longitude: 0.003))
        // The west side is 0.003° away, the others 0.005° or more: the edge point is (0, 0.005),
        // 0.003° × 100 km = 300 m in the flat world.
        let match = try #require(answer.inside.first)
        #expect(answer.inside.count == 1)
        #expect(match.id == "A" && match.name == "Alpha" && match.location == "interior")
        #expect(match.nearestEdgePoint == .init(latitude: 0.005, longitude: 0))
        #expect(match.distanceToEdgeMetres == 300)
        #expect(answer.nearest == nil && answer.swapHint == nil)
        #expect(!answer.approximate && answer.approximation == nil)
    }

    @Test func onTheBoundaryTheDistanceIsZero() throws {
        let lookup = SectorLookup(layer: try Self.layer(), geodesic: FlatWorld())
        let match = try #require(lookup.answer(for: Point(latitude: 0.004, longitude: 0.01)).inside.first)
        #expect(match.id == "A" && match.location == "boundary")
        #expect(match.distanceToEdgeMetres == 0)
    }

    @Test func outsideEveryPolygonTheNearestOneIsNamed() throws {
        let lookup = SectorLookup(layer: try Self.layer(), geodesic: FlatWorld())
        // Alpha's east side is 0.005° away, Beta's west side 0.006°.
        let answer = lookup.answer(for: Point(latitude: 0.005, longitude: 0.015))
        #expect(answer.inside.isEmpty)
        let nearest = try #require(answer.nearest)
        #expect(nearest.id == "A" && nearest.location == "exterior")
        #expect(nearest.nearestEdgePoint == .init(latitude: 0.005, longitude: 0.01))
        #expect(nearest.distanceToEdgeMetres == 500)
    }

    @Test func swappedNumbersThatFallInsideAreHinted() throws {
        let lookup = SectorLookup(layer: try Self.layer(), geodesic: FlatWorld())
        // Latitude 0.025 is north of both squares; read the other way round, (0.005, 0.025) is in Beta.
        let hint = try #require(lookup.answer(for: Point(latitude: 0.025, longitude: 0.005)).swapHint)
        #expect(hint.latitude == 0.005 && hint.longitude == 0.025)
        #expect(hint.layer == "squares" && hint.features == ["Beta"])
        // Numbers that are the same both ways give no hint.
        #expect(lookup.answer(for: Point(latitude: 0.05, longitude: 0.05)).swapHint == nil)
    }

    /// When the candidates' boxes are known, swapped numbers outside every box (and outside the
    /// queried layer) get no hint without the candidates being asked for; inside one they are.
    @Test func swapCandidatesAreAskedForOnlyWhenTheirBoxesCouldHoldTheSwappedPoint() throws {
        let east = Layer(
            name: "east", title: "A square at 0.5° E, 0.2° N",
            features: [
                Feature(id: "E", name: "East", geometry: try rectangle(west: 0.5, south: 0.2, east: 0.51, north: 0.21))
            ],
            approximation: nil, source: "made in the test", sourceCRS: "EPSG:4326", notes: [])
        let squares = try Self.layer()
        let knowing = SectorLookup(
            layer: squares, geodesic: FlatWorld(), swapCandidateExtents: [east.index.boundingBox])
        let unknowing = SectorLookup(layer: squares, geodesic: FlatWorld())
        var asked = 0
        let candidates = {
            asked += 1
            return [east]
        }
        // (0.505, 0.205) read the other way round is in East.
        let hinted = knowing.answer(for: Point(latitude: 0.505, longitude: 0.205), swapCandidates: candidates)
        #expect(asked == 1 && hinted.swapHint?.layer == "east" && hinted.swapHint?.features == ["East"])
        // (0.7, 0.3) swapped is a valid position, in neither box: not asked, no hint.
        let far = Point(latitude: 0.7, longitude: 0.3)
        #expect(knowing.answer(for: far, swapCandidates: candidates).swapHint == nil)
        #expect(asked == 1)
        // Without the boxes the candidates must be asked, and give no hint either.
        #expect(unknowing.answer(for: far, swapCandidates: candidates).swapHint == nil)
        #expect(asked == 2)
    }

    @Test func anApproximateLayerSaysSoInTheAnswersLanguage() throws {
        let note = ApproximationNote(en: "drawn by hand", es: "dibujado a mano")
        let lookup = SectorLookup(layer: try Self.layer(approximation: note), geodesic: FlatWorld())
        let point = Point(latitude: 0.005, longitude: 0.003)
        #expect(lookup.answer(for: point, language: .es).approximation == "dibujado a mano")
        #expect(lookup.answer(for: point, language: .eu).approximation == "drawn by hand")
        #expect(lookup.answer(for: point).approximate)
    }

    /// With the ellipsoid's own geodesic (Karney's, through PROJ) on the equator, the distance to
    /// Alpha's east side is the equatorial arc of 0.005°: 556.597 m, to the centimetre.
    @Test func onTheEquatorTheDistanceIsTheEquatorialArc() throws {
        let lookup = SectorLookup(layer: try Self.layer(), geodesic: Geodesic.wgs84)
        let nearest = try #require(lookup.answer(for: Point(latitude: 0, longitude: 0.015)).nearest)
        #expect(nearest.nearestEdgePoint == .init(latitude: 0, longitude: 0.01))
        #expect(nearest.distanceToEdgeMetres == (equatorialArc(degrees: 0.005) * 100).rounded() / 100)
    }
}
