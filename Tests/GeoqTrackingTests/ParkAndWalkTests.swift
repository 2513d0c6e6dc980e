import Foundation
import GeoqCore
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
    /// Metres from `parking` to Sector 2's edge going east.
    let edge: Double

    init() throws {
        let fixture = try Sector2()
        sectors = fixture.sectors
        sector2 = fixture.layer
        parking = fixture.parking
        edge = fixture.edge
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

    /// Walking away from the parked car leaves it parked: the phone's exit is reported, no `left`.
    @Test(arguments: [(UInt64(2), false), (6, false), (3, true), (4, true)])
    func enterDwellParkedExit(seed: UInt64, withSpeed: Bool) throws {
        let fencer = Geofencer(layer: sector2)
        let replay = Replay(trace(seed: seed, withSpeed: withSpeed), through: fencer)
        #expect(replay.kinds == [.enter, .dwell, .parked, .exit])
        #expect(Set(replay.events.map(\.visit)).count == 1)
        #expect(replay.events.map(\.sequence) == [1, 2, 3, 4])
        #expect(replay.events.allSatisfy { $0.featureID == "2" && $0.layer == "pamplona-sectors" })
        #expect(replay.ignored.isEmpty)
        // Parked while stopped (the drive in takes about 30 s inside), the phone's exit on the walk out.
        let times = replay.events.map { Fixtures.time($0.time) }
        let stop = Fixtures.monday10 + (edge + 300) / 10
        #expect(times[2] > stop && times[2] < stop + 120)
        #expect(times[3] > stop + 600)
        #expect(replay.tracks["car-1"]?.car != nil)
    }

    @Test func aReplayGivesTheSameEventsAndVisitIDs() throws {
        let fencer = Geofencer(layer: sector2)
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
        let lookup = SectorLookup(layer: sectors, geodesic: KarneyGeodesic.wgs84)
        let curb = ZoneLocator.Segment(
            zone: "blue", featureID: "curb", a: TraceMaker.offset(parking, east: -50, north: 8),
            b: TraceMaker.offset(parking, east: 50, north: 8))
        let zones = ZoneLocator(segments: [curb], toleranceMetres: 60)
        let query = ParkQuery(tariffs: tariffs, sectors: lookup, zones: zones)
        let fencer = Geofencer(layer: sector2, parkQuery: query, language: .en)
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
