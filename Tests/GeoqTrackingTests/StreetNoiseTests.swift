import Foundation
import GeoqCore
import GeoqTracking
import Testing

/// The parking app's traces under a city street's GPS: 1 Hz fixes with seeded Gaussian noise
/// per axis, clipped at 3σ: 15 m while standing, 12 m while moving, reported accuracy 10 m, on
/// Pamplona's Sector 2. Each kind of trace on eight seeds, and each must give exactly its
/// events: one extra `left` cancels the reminders of a car still parked, one extra `parked` sends
/// a reminder for a car in traffic.
@Suite struct StreetNoiseTests {
    let sector: Sector2
    let fencer: Geofencer
    static let seeds: [UInt64] = [21, 22, 23, 24, 25, 26, 27, 28]

    init() throws {
        sector = try Sector2()
        fencer = Geofencer(layer: sector.layer)
    }

    /// A trace maker with the street's noise, starting Monday 10:00.
    func street(_ seed: UInt64) -> TraceMaker {
        TraceMaker(seed: seed, device: "car", sigma: 12, accuracy: 10, start: Fixtures.monday10)
    }

    /// Drives from 300 m outside the east edge to the spot and parks ten minutes; returns when
    /// the car stopped.
    func driveInAndPark(_ maker: inout TraceMaker) -> Date {
        maker.sigma = 12
        maker.move(from: sector.east(sector.edge + 300), to: sector.parking, speed: 10)
        let stopped = maker.time
        maker.sigma = 15
        maker.stay(at: sector.parking, seconds: 600)
        return stopped
    }

    func walk(_ maker: inout TraceMaker, from a: Point, to b: Point, speed: Double = 1.4) {
        maker.sigma = 12
        maker.move(from: a, to: b, speed: speed)
    }

    func stand(_ maker: inout TraceMaker, at p: Point, seconds: Int) {
        maker.sigma = 15
        maker.stay(at: p, seconds: seconds)
    }

    func metres(_ event: TrackingEvent, from p: Point) -> Double {
        TraceMaker.distance(Point(x: event.position.longitude, y: event.position.latitude), p)
    }

    /// Parked ten minutes, then walking away out of the sector: the car stays parked (no `left`),
    /// the phone's exit is reported, and the car is where it stopped.
    @Test(arguments: seeds)
    func parkAndWalkAway(seed: UInt64) throws {
        var maker = street(seed)
        let stopped = driveInAndPark(&maker)
        walk(&maker, from: sector.parking, to: sector.east(sector.edge + 150))
        stand(&maker, at: sector.east(sector.edge + 150), seconds: 60)
        let replay = Replay(maker.fixes, through: fencer)
        #expect(replay.kinds == [.enter, .dwell, .parked, .exit])
        let parked = try #require(replay.events.first { $0.event == .parked })
        let parkedAt = Fixtures.time(parked.time)
        #expect(parkedAt >= stopped + 50 && parkedAt < stopped + 150)
        // The anchor: the mean of a minute or more of fixes with 15 m of noise.
        #expect(metres(parked, from: sector.parking) < 10)
        #expect(replay.tracks["car"]?.car != nil)
    }

    /// Parked ten minutes, then driving off: `left` within half a minute, then the exit.
    @Test(arguments: seeds)
    func parkAndDriveOff(seed: UInt64) throws {
        var maker = street(seed)
        _ = driveInAndPark(&maker)
        let departed = maker.time
        walk(&maker, from: sector.parking, to: sector.east(sector.edge + 300), speed: 8)
        let replay = Replay(maker.fixes, through: fencer)
        #expect(replay.kinds.sorted { $0.rawValue < $1.rawValue } == [.dwell, .enter, .exit, .left, .parked])
        #expect(Array(replay.kinds.prefix(3)) == [.enter, .dwell, .parked])
        let left = try #require(replay.events.first { $0.event == .left })
        #expect(Fixtures.time(left.time) > departed && Fixtures.time(left.time) < departed + 30)
        #expect(left.visit == replay.events[2].visit && left.featureID == "2")
        #expect(replay.tracks["car"]?.car == nil)
    }

    /// Walks away out of the sector for five minutes, comes back, sits in the car, drives off:
    /// the car leaves only then, with the visit it was parked in.
    @Test(arguments: seeds)
    func walkAwayComeBackAndDriveOff(seed: UInt64) throws {
        var maker = street(seed)
        _ = driveInAndPark(&maker)
        let outside = sector.east(sector.edge + 120)
        walk(&maker, from: sector.parking, to: outside)
        stand(&maker, at: outside, seconds: 300)
        walk(&maker, from: outside, to: sector.parking)
        stand(&maker, at: sector.parking, seconds: 60)
        let departed = maker.time
        walk(&maker, from: sector.parking, to: sector.east(sector.edge + 300), speed: 8)
        let replay = Replay(maker.fixes, through: fencer)
        let kinds = replay.kinds
        #expect(Array(kinds.prefix(6)) == [.enter, .dwell, .parked, .exit, .enter, .dwell])
        #expect(kinds.count == 8 && Set(kinds.suffix(2)) == [.left, .exit])
        let left = try #require(replay.events.first { $0.event == .left })
        #expect(Fixtures.time(left.time) > departed && Fixtures.time(left.time) < departed + 30)
        #expect(left.visit == replay.events[2].visit && left.visit != replay.events[4].visit)
    }

    /// Walks away for three minutes, then rides a bus at 10 m/s: a ride far from the car is not
    /// the car moving; it stays parked.
    @Test(arguments: seeds)
    func walkThenBusLeavesTheCarParked(seed: UInt64) throws {
        var maker = street(seed)
        _ = driveInAndPark(&maker)
        let stop = sector.east(180 * 1.4)
        walk(&maker, from: sector.parking, to: stop)
        walk(&maker, from: stop, to: sector.east(sector.edge + 2_000), speed: 10)
        let replay = Replay(maker.fixes, through: fencer)
        #expect(replay.kinds == [.enter, .dwell, .parked, .exit])
        #expect(replay.tracks["car"]?.car != nil)
    }

    /// Crawling west through a jam at 1 m/s for five minutes, then on at 10 m/s out of the
    /// sector's west side: traffic, not a stay; no `parked`.
    @Test(arguments: seeds)
    func aJamIsNotParked(seed: UInt64) throws {
        var westEdge = 0.0
        while sector.layer.index.locate(sector.east(-westEdge), item: 0) != .exterior { westEdge += 1 }
        for beyond in stride(from: 20.0, through: 300, by: 5) {
            #expect(sector.layer.index.locate(sector.east(-westEdge - beyond), item: 0) == .exterior)
        }
        var maker = street(seed)
        let jamStart = sector.east(150), jamEnd = sector.east(-150)
        maker.move(from: sector.east(sector.edge + 300), to: jamStart, speed: 10)
        maker.move(from: jamStart, to: jamEnd, speed: 1)
        maker.move(from: jamEnd, to: sector.east(-westEdge - 300), speed: 10)
        let replay = Replay(maker.fixes, through: fencer)
        #expect(replay.kinds == [.enter, .dwell, .exit])
    }

    /// A car parked 5 m inside the sector's edge: its noise crosses the 20 m margin on single
    /// fixes (with every crossing on its first fix it flaps), never on a run of them.
    @Test func parkedByTheEdgeStaysIn() throws {
        let spot = try spotAtDepth(5, inside: true)
        var flapped = 0
        for seed in Self.seeds {
            var maker = street(seed)
            // In through the sector's middle, then back to the spot by the edge.
            maker.move(from: sector.east(sector.edge + 300), to: sector.parking, speed: 10)
            maker.move(from: sector.parking, to: spot, speed: 5)
            stand(&maker, at: spot, seconds: 600)
            let replay = Replay(maker.fixes, through: fencer)
            #expect(replay.kinds == [.enter, .dwell, .parked], "seed \(seed)")
            let immediate = Replay(maker.fixes, through: Geofencer(layer: sector.layer, options: .immediate))
            flapped += immediate.kinds.filter { $0 == .exit }.count
        }
        #expect(flapped > 0)
    }

    /// Parked 5 m outside the edge: never in the sector, though single fixes reach 20 m inside.
    @Test func parkedJustOutsideNeverEnters() throws {
        let spot = try spotAtDepth(5, inside: false)
        var entered = 0
        for seed in Self.seeds {
            var maker = street(seed)
            maker.sigma = 15
            maker.stay(at: spot, seconds: 600)
            #expect(Replay(maker.fixes, through: fencer).kinds.isEmpty, "seed \(seed)")
            let immediate = Replay(maker.fixes, through: Geofencer(layer: sector.layer, options: .immediate))
            entered += immediate.kinds.filter { $0 == .enter }.count
        }
        #expect(entered > 0)
    }

    /// A point on the way east from the spot whose distance to the boundary is `metres` (±0.5),
    /// inside or outside.
    func spotAtDepth(_ metres: Double, inside: Bool) throws -> Point {
        var step = sector.edge - 40
        while step < sector.edge + 40 {
            let p = sector.east(step)
            let isInside = sector.layer.index.locate(p, item: 0) == .interior
            if isInside == inside, abs(sector.depth(of: p) - metres) <= 0.5 { return p }
            step += 0.25
        }
        throw SpotNotFound()
    }

    struct SpotNotFound: Error {}
}

/// The fit a stay and a departure are judged by, against values worked out apart.
@Suite struct MotionFitTests {
    func fix(_ p: Point, _ seconds: Double) -> Fix {
        Fix(device: "d", time: Fixtures.monday10 + seconds, latitude: p.y, longitude: p.x)
    }

    /// Exact fixes moving north-east at a steady pace: the fitted speed is the geodesic distance
    /// (geoq's Karney solution) over the time, and the anchor is the middle of the way.
    @Test func aSteadyWalkFitsItsSpeedAndItsMiddle() {
        let start = Point(x: -1.64, y: 42.81)
        var fit: MotionFit?
        for s in 0...60 {
            let p = TraceMaker.offset(start, east: Double(s), north: Double(s))
            if fit == nil { fit = MotionFit(first: fix(p, Double(s))) } else { fit!.add(fix(p, Double(s))) }
        }
        let end = TraceMaker.offset(start, east: 60, north: 60)
        let geodesic = KarneyGeodesic.wgs84.distanceAndBearing(from: start, to: end).distance
        #expect(abs(fit!.speed - geodesic / 60) < 0.001)
        let middle = TraceMaker.offset(start, east: 30, north: 30)
        let anchor = fit!.anchor
        let offMiddle = KarneyGeodesic.wgs84.distanceAndBearing(
            from: middle, to: Point(x: anchor.longitude, y: anchor.latitude)
        ).distance
        #expect(offMiddle < 0.01)
        #expect(fit!.duration == 60)
    }

    @Test func aSingleFixOrFixesAtOneTimeHaveNoSpeed() {
        let p = Point(x: -1.64, y: 42.81)
        var fit = MotionFit(first: fix(p, 0))
        #expect(fit.speed == 0 && fit.duration == 0)
        fit.add(fix(TraceMaker.offset(p, east: 50, north: 0), 0))
        #expect(fit.speed == 0)
    }
}
