import Foundation
import GeoqCore
import GeoqPROJ
import GeoqParking
import GeoqQuery
import GeoqTariffs
import GeoqTracking
import Testing

/// Drive into Pamplona's Sector 2, park ten minutes, walk away out of it: 1 Hz fixes with
/// seeded Gaussian noise (10 m per axis, about 15 m radial, clipped at 3σ).
@Suite struct ParkAndWalkTests {
    let sectors: Layer
    /// Sector 2 alone, so that the drive starts and ends outside every feature.
    let sector2: Layer
    let parking: Point
    let direction: (east: Double, north: Double)
    /// Metres from `parking` to Sector 2's edge along `direction`.
    let edge: Double

    init() throws {
        sectors = try Fixtures.library().layer(named: "pamplona-sectors")
        let feature = try #require(sectors.features.first { $0.id == "2" })
        sector2 = Fixtures.layer([feature], name: "pamplona-sectors")
        // The spot of a 40 × 40 grid over the sector's box deepest inside, and the way out east,
        // checked on the way: inside until the edge, then outside for 400 m.
        let item = 0
        let box = sector2.index.boundingBox(of: item)
        let metric = LocalMetric(wgs84AtLatitude: (box.minY + box.maxY) / 2)
        var best = (point: Point(x: box.minX, y: box.minY), depth: -1.0)
        for i in 1..<40 {
            for j in 1..<40 {
                let p = Point(
                    x: box.minX + (box.maxX - box.minX) * Double(i) / 40,
                    y: box.minY + (box.maxY - box.minY) * Double(j) / 40)
                guard sector2.index.locate(p, item: item) == .interior else { continue }
                let depth = sector2.index.nearestBoundaryPoint(to: p, item: item, metric: metric).distance
                if depth > best.depth { best = (p, depth) }
            }
        }
        parking = best.point
        #expect(sector2.index.locate(parking, item: item) == .interior)
        #expect(sector2.index.nearestBoundaryPoint(to: parking, item: item, metric: metric).distance > 150)
        direction = (1, 0)
        var metres = 0.0
        while sector2.index.locate(TraceMaker.offset(parking, east: metres, north: 0), item: item) != .exterior {
            metres += 1
        }
        edge = metres
        for extra in stride(from: 1.0, through: 400, by: 5) {
            #expect(
                sector2.index.locate(TraceMaker.offset(parking, east: edge + extra, north: 0), item: item) == .exterior)
        }
    }

    func trace(seed: UInt64, withSpeed: Bool) -> [Fix] {
        var maker = TraceMaker(
            seed: seed, device: "car-1", sigma: 10, accuracy: 15, withSpeed: withSpeed, start: Fixtures.monday10)
        let start = TraceMaker.offset(parking, east: edge + 300, north: 0)
        let away = TraceMaker.offset(parking, east: edge + 100, north: 0)
        maker.move(from: start, to: parking, speed: 10)
        maker.stay(at: parking, seconds: 600)
        maker.move(from: parking, to: away, speed: 1.4)
        maker.stay(at: away, seconds: 30)
        return maker.fixes
    }

    @Test(arguments: [(UInt64(2), false), (6, false), (3, true), (4, true)])
    func enterDwellParkedLeftExit(seed: UInt64, withSpeed: Bool) throws {
        let fencer = Geofencer(layer: sector2, geodesic: Geodesic.wgs84)
        let replay = Replay(trace(seed: seed, withSpeed: withSpeed), through: fencer)
        #expect(replay.kinds == [.enter, .dwell, .parked, .left, .exit])
        #expect(Set(replay.events.map(\.visit)).count == 1)
        #expect(replay.events.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(replay.events.allSatisfy { $0.featureID == "2" && $0.layer == "pamplona-sectors" })
        #expect(replay.ignored.isEmpty)
        // Parked while stopped (the drive in takes about 30 s inside), left on the walk out.
        let times = replay.events.map { Fixtures.time($0.time) }
        let stop = Fixtures.monday10 + (edge + 300) / 10
        #expect(times[2] > stop && times[2] < stop + 120)
        #expect(times[3] > stop + 600)
    }

    @Test func aReplayGivesTheSameEventsAndVisitIDs() throws {
        let fencer = Geofencer(layer: sector2, geodesic: Geodesic.wgs84)
        let fixes = trace(seed: 5, withSpeed: false)
        #expect(Replay(fixes, through: fencer).events == Replay(fixes, through: fencer).events)
        // Another device on the same trace: another visit.
        let other = fixes.map {
            var f = $0; f.device = "car-2"; return f
        }
        #expect(Replay(fixes, through: fencer).events[0].visit != Replay(other, through: fencer).events[0].visit)
    }

    /// The parked event carries ParkQuery's answer for that point and moment; with a blue zone
    /// line beside the spot, a max-stay ticket and reminders 10 and 5 minutes before its end.
    @Test func parkedCarriesTheParkAnswerAndReminders() throws {
        let tariffs = try Fixtures.pamplonaTariffs()
        let lookup = SectorLookup(layer: sectors, geodesic: Geodesic.wgs84)
        let curb = ZoneLocator.Segment(
            zone: "blue", featureID: "curb", a: TraceMaker.offset(parking, east: -50, north: 8),
            b: TraceMaker.offset(parking, east: 50, north: 8))
        let zones = ZoneLocator(segments: [curb], toleranceMetres: 60)
        let query = ParkQuery(tariffs: tariffs, sectors: lookup, zones: zones)
        let fencer = Geofencer(layer: sector2, geodesic: Geodesic.wgs84, parkQuery: query, language: .en)
        let replay = Replay(trace(seed: 1, withSpeed: false), through: fencer)
        let parked = try #require(replay.events.first { $0.event == .parked })
        let point = Point(latitude: parked.position.latitude, longitude: parked.position.longitude)
        let time = Fixtures.time(parked.time)
        let expected = try query.answer(
            at: point, time: time, zoneID: nil, request: .minutes(120), reminders: [10, 5], language: .en
        ).answer
        #expect(parked.park == expected)
        #expect(expected.sector.id == "2" && expected.zone?.id == "blue")
        // A blue ticket bought on a Monday morning runs its 120 minutes straight.
        let end = try #require(expected.ticket.map { Fixtures.time($0.end) })
        #expect(end == time.addingTimeInterval(7200).flooredToMinute)
        #expect(
            parked.reminders
                == [end - 600, end - 300].map { tariffs.clock.iso8601($0) })
        // Times are in the city's clock: 10:0x on Monday 23 November 2026 (UTC+1).
        #expect(parked.time.hasPrefix("2026-11-23T10:0") && parked.time.hasSuffix("+01:00"))
        #expect(replay.events.filter { $0.event != .parked }.allSatisfy { $0.park == nil && $0.reminders == nil })
    }
}

extension Date {
    var flooredToMinute: Date { Date(timeIntervalSince1970: (timeIntervalSince1970 / 60).rounded(.down) * 60) }
}
