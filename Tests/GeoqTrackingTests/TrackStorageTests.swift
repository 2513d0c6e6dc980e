import Foundation
import GeoqCore
import Testing

@testable import GeoqTracking

/// The stored record of a track: every state a real trace passes through (a stay, a parked car,
/// an excursion on foot, runs of crossings) comes back bit for bit, a service that stores and
/// reads the track between every two fixes gives the same events as one that keeps it in
/// memory, tracks written as JSON by older versions are still read, and damaged records are
/// refused, never read wrong.
@Suite struct TrackStorageTests {
    let sector: Sector2
    let fencer: Geofencer

    init() throws {
        sector = try Sector2()
        fencer = Geofencer(layer: sector.layer)
    }

    /// Parks, walks out of the sector and back, stands at the car, drives off: every field of a
    /// track is set at some fix of it.
    func trace(seed: UInt64) -> [Fix] {
        var maker = TraceMaker(seed: seed, device: "car", sigma: 12, accuracy: 10, start: Fixtures.monday10)
        maker.move(from: sector.east(sector.edge + 300), to: sector.parking, speed: 10)
        maker.sigma = 15
        maker.stay(at: sector.parking, seconds: 600)
        maker.sigma = 12
        let outside = sector.east(sector.edge + 120)
        maker.move(from: sector.parking, to: outside, speed: 1.4)
        maker.stay(at: outside, seconds: 300)
        maker.move(from: outside, to: sector.parking, speed: 1.4)
        maker.stay(at: sector.parking, seconds: 60)
        maker.move(from: sector.parking, to: sector.east(sector.edge + 300), speed: 8)
        return maker.fixes
    }

    @Test(arguments: [31, 32, 33] as [UInt64])
    func everyStateOfATraceComesBackBitForBit(seed: UInt64) throws {
        var kept: DeviceTrack?
        var stored: DeviceTrack?
        var keptEvents: [TrackingEvent] = []
        var storedEvents: [TrackingEvent] = []
        var fieldsSeen: Set<String> = []
        for fix in trace(seed: seed) {
            keptEvents += fencer.advance(&kept, with: fix).events
            storedEvents += fencer.advance(&stored, with: fix).events
            let track = try #require(stored)
            stored = try DeviceTrack(storage: track.storage)
            #expect(stored == track)
            #expect(stored?.lastTime.timeIntervalSinceReferenceDate == track.lastTime.timeIntervalSinceReferenceDate)
            for (name, value) in Mirror(reflecting: track).children {
                if let name, !Self.isNil(value) { fieldsSeen.insert(name) }
            }
        }
        #expect(storedEvents == keptEvents)
        #expect(Array(storedEvents.map(\.event).prefix(6)) == [.enter, .dwell, .parked, .exit, .enter, .dwell])
        // Every optional field was set at some fix, so each went through the record.
        let optionals: Set<String> = [
            "lastAccuracy", "featureID", "featureName", "visit", "enteredAt", "exitedID", "leaving", "entering",
            "stay", "strayed", "car", "excursion", "onFoot", "returning",
        ]
        #expect(optionals.subtracting(fieldsSeen).isEmpty, "never set: \(optionals.subtracting(fieldsSeen))")
    }

    @Test func aTrackWrittenAsJSONIsStillRead() throws {
        let fixes = trace(seed: 34)
        var track: DeviceTrack?
        for fix in fixes.prefix(700) { _ = fencer.advance(&track, with: fix) }
        let json = try JSONEncoder().encode(try #require(track))
        #expect(try DeviceTrack(storage: [UInt8](json)) == track)
        #expect(try #require(track).storage.count * 2 < json.count)
    }

    @Test func aDamagedRecordIsRefused() throws {
        var track: DeviceTrack?
        for fix in trace(seed: 35).prefix(700) { _ = fencer.advance(&track, with: fix) }
        let record = try #require(track).storage
        for length in 0..<record.count {
            #expect(throws: TrackRecordError.self) { try DeviceTrack(storage: Array(record.prefix(length))) }
        }
        #expect(throws: TrackRecordError.self) { try DeviceTrack(storage: record + [0]) }
        var unknown = record
        unknown[unknown.startIndex] = 9
        #expect(throws: TrackRecordError.self) { try DeviceTrack(storage: unknown) }
    }

    static func isNil(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }
}
