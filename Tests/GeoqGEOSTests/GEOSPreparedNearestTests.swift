import GeoqCore
import GeoqGEOS
import Testing

/// The prepared nearest-point and distance bindings, on a 10 × 4 rectangle whose answers are
/// schoolroom geometry.
@Suite struct GEOSPreparedNearestTests {
    let context = GEOSContext()

    func rectangleBoundary() throws -> GEOSPreparedGeometry {
        let ring = [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 4), Point(x: 0, y: 4), Point(x: 0, y: 0)]
        return try context.prepare(try context.makeGeometry(.multiLineString([ring])))
    }

    @Test func nearestEdgePointFromInsideAndOutside() throws {
        let boundary = try rectangleBoundary()
        // Inside, 1 from the south side and 3 from the north: the foot on the south side.
        #expect(try boundary.nearestPoint(to: Point(x: 6, y: 1)) == Point(x: 6, y: 0))
        #expect(try boundary.distance(to: Point(x: 6, y: 1)) == 1)
        // Outside beyond the north-east corner: the corner, 5 away (3-4-5).
        #expect(try boundary.nearestPoint(to: Point(x: 13, y: 8)) == Point(x: 10, y: 4))
        #expect(try boundary.distance(to: Point(x: 13, y: 8)) == 5)
    }

    @Test func aCoveringPolygonIsAtDistanceZero() throws {
        let shell = try Ring([
            Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 4), Point(x: 0, y: 4), Point(x: 0, y: 0),
        ])
        let polygon = try context.prepare(try context.makeGeometry(.polygon(Polygon(shell: shell))))
        #expect(try polygon.distance(to: Point(x: 6, y: 1)) == 0)
        #expect(try polygon.nearestPoint(to: Point(x: 6, y: 1)) == Point(x: 6, y: 1))
    }
}
