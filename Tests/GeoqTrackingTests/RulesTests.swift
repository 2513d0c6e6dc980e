import Foundation
import GeoqCore
import GeoqQuery
import GeoqTracking
import Testing

/// The rules one at a time, on a made-up square (see ``Fixtures/square(id:name:)``), with exact
/// fixes: each crossing on its first fix (``GeofenceOptions/immediate``), except where the
/// confirmation of crossings is the rule tested.
@Suite struct RulesTests {
    let layer: Layer
    let fencer: Geofencer
    let t0 = Fixtures.monday10

    init() throws {
        layer = Fixtures.layer([try Fixtures.square()])
        fencer = Geofencer(layer: layer, options: .immediate)
    }

    /// A point `metres` east of the square's east edge (negative: inside), at mid-height.
    func eastEdge(_ metres: Double, north: Double = 0) -> Point {
        TraceMaker.offset(
            Point(x: Fixtures.east, y: (Fixtures.south + Fixtures.north) / 2), east: metres, north: north)
    }

    func fix(_ p: Point, _ seconds: Double, accuracy: Double? = nil, device: String = "d") -> Fix {
        Fix(device: device, time: t0 + seconds, latitude: p.y, longitude: p.x, accuracy: accuracy)
    }

    /// Walking along the east edge with noise up to 15 m either side: one enter, never an exit
    /// (outside by at most 15 m, under the 20 m margin). Without the margin the same trace flaps.
    @Test(arguments: [UInt64(11), 12, 13])
    func alongTheEdgeWithinTheMarginNoExit(seed: UInt64) throws {
        var maker = TraceMaker(seed: seed, device: "d", sigma: 5, accuracy: 5, start: t0)
        maker.fix(at: eastEdge(-200), speed: 0)
        maker.move(from: eastEdge(-200), to: eastEdge(0), speed: 1.4)
        maker.move(from: eastEdge(0), to: eastEdge(0, north: 800), speed: 1.4)
        let replay = Replay(maker.fixes, through: fencer)
        #expect(replay.kinds.filter { $0 == .enter || $0 == .exit } == [.enter])
        #expect(replay.kinds.first == .enter)

        let noMargin = Geofencer(
            layer: layer, options: GeofenceOptions(marginMetres: 0, confirmFixes: 1, confirmSeconds: 0))
        let flapping = Replay(maker.fixes, through: noMargin)
        #expect(flapping.kinds.filter { $0 == .exit }.count > 5)
        #expect(Set(flapping.events.map(\.visit)).count > 5)
    }

    @Test func olderAndDuplicateFixesAreIgnoredAndCounted() throws {
        let p = eastEdge(-300)
        let fixes = [
            fix(p, 0), fix(p, 1), fix(p, 2), fix(p, 1), fix(p, 2), fix(eastEdge(100), 0.5), fix(p, 3),
        ]
        var track: DeviceTrack?
        var ignored: [IgnoredFix.Reason] = []
        var events: [TrackingEvent] = []
        for (i, f) in fixes.enumerated() {
            let before = track
            let step = fencer.advance(&track, with: f)
            events += step.events
            if let reason = step.ignored?.reason {
                ignored.append(reason)
                #expect(track == before, "fix \(i) changed the track")
                #expect(step.events.isEmpty)
            }
        }
        #expect(ignored == [.older, .duplicate, .older])
        // The older fix far outside would have been an exit.
        #expect(events.map(\.event) == [.enter])
        #expect(track?.lastTime == t0 + 3)
    }

    @Test func aStraddlingFixChangesNoState() throws {
        // 10 m inside with a 30 m circle: no enter; with a 5 m circle: enter.
        var track: DeviceTrack?
        #expect(fencer.advance(&track, with: fix(eastEdge(-10), 0, accuracy: 30)).events.isEmpty)
        #expect(track?.featureID == nil)
        #expect(fencer.advance(&track, with: fix(eastEdge(-10), 1, accuracy: 5)).events.map(\.event) == [.enter])
        // 25 m outside: past the 20 m margin, but inside a 40 m circle: no exit; then a 10 m
        // circle: exit.
        #expect(fencer.advance(&track, with: fix(eastEdge(25), 2, accuracy: 40)).events.isEmpty)
        #expect(track?.featureID == "Q")
        let exit = fencer.advance(&track, with: fix(eastEdge(25), 3, accuracy: 10)).events
        #expect(exit.map(\.event) == [.exit] && exit[0].reason == nil)
        // Outside by more than the accuracy but not the margin is still no exit.
        var other: DeviceTrack?
        _ = fencer.advance(&other, with: fix(eastEdge(-100), 0, accuracy: 5))
        #expect(fencer.advance(&other, with: fix(eastEdge(15), 1, accuracy: 5)).events.isEmpty)
        #expect(other?.featureID == "Q")
    }

    @Test func silenceEndsTheStayWithASyntheticExit() throws {
        var track: DeviceTrack?
        let p = eastEdge(-300)
        let enter = fencer.advance(&track, with: fix(p, 0)).events
        var t = try #require(track)
        #expect(fencer.expire(&t, at: t0 + 600).isEmpty)
        let exit = fencer.expire(&t, at: t0 + 601)
        #expect(exit.map(\.event) == [.exit] && exit[0].reason == "silent")
        #expect(exit[0].visit == enter[0].visit && exit[0].sequence == 2)
        #expect(Fixtures.time(exit[0].time) == t0 + 600)
        #expect(exit[0].position == .init(latitude: p.y, longitude: p.x))
        #expect(t.featureID == nil && fencer.expire(&t, at: t0 + 5000).isEmpty)

        // A fix after the silence: the exit first, then a new stay.
        var replayed: DeviceTrack?
        _ = fencer.advance(&replayed, with: fix(p, 0))
        let later = fencer.advance(&replayed, with: fix(p, 700)).events
        #expect(later.map(\.event) == [.exit, .enter] && later[0].reason == "silent")
        #expect(later[0].visit != later[1].visit && later.map(\.sequence) == [2, 3])
    }

    @Test func aReloadThatDropsTheFeatureEndsTheStay() throws {
        var track: DeviceTrack?
        let enter = fencer.advance(&track, with: fix(eastEdge(-300), 0)).events
        var t = try #require(track)
        let same = Fixtures.layer([try Fixtures.square()])
        #expect(fencer.reconcile(&t, with: same, at: t0 + 10).isEmpty)
        let other = Fixtures.layer([try Fixtures.square(id: "R", name: "Renamed")])
        let exit = fencer.reconcile(&t, with: other, at: t0 + 10)
        #expect(exit.map(\.event) == [.exit] && exit[0].reason == "removed")
        #expect(exit[0].featureID == "Q" && exit[0].visit == enter[0].visit)
        #expect(Fixtures.time(exit[0].time) == t0 + 10)
        #expect(t.featureID == nil)
        // Over the new layer, the next fix enters R.
        var next: DeviceTrack? = t
        let reloaded = Geofencer(layer: other, options: .immediate)
        let enterR = reloaded.advance(&next, with: fix(eastEdge(-300), 20)).events
        #expect(enterR.map(\.event) == [.enter] && enterR[0].featureID == "R" && enterR[0].sequence == 3)
    }

    @Test func dwellOnceAndLeftWhenAParkedDeviceDrivesOff() throws {
        var track: DeviceTrack?
        var kinds: [TrackingEvent.Kind] = []
        let p = eastEdge(-800)
        for s in 0...70 { kinds += fencer.advance(&track, with: fix(p, Double(s))).events.map(\.event) }
        #expect(kinds == [.enter, .dwell, .parked])
        let car = try #require(track?.car)
        #expect(car.latitude == p.y && car.longitude == p.x && car.visit == track?.visit)
        // Then 30 m a second, still inside: the first fix out of the 25 m radius starts the way
        // off; its speed is judged over 20 s.
        var off: [TrackingEvent.Kind] = []
        for s in 1...21 {
            let step = fencer.advance(&track, with: fix(eastEdge(-800 + 30 * Double(s)), 70 + Double(s))).events
            off += step.map(\.event)
            if s == 20 { #expect(off.isEmpty && track?.parked == true) }
        }
        #expect(off == [.left])
        #expect(track?.featureID == "Q" && track?.parked == false && track?.car == nil)
        let json = try JSONEncoder().encode(track)
        #expect(try JSONDecoder().decode(DeviceTrack.self, from: json) == track)
    }
}
