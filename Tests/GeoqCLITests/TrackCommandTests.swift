import Foundation
import GeoqTestSupport
import Testing

/// `geoq track` on a small CSV trace written by the test: standing 70 s in Pamplona's Sector 2,
/// a repeated line, two minutes' drive north into Sector 1, then a jump far outside every sector.
@Suite struct TrackCommandTests {
    static func trace() throws -> URL {
        var lines = ["time,lat,lon,accuracy"]
        let start = 1_795_424_400  // 2026-11-23T09:00:00Z, a Monday, regulated hours
        for s in 0...70 { lines.append("\(start + s),42.81,-1.64,5") }
        lines.append("\(start + 70),42.81,-1.64,5")
        // Then 10 m/s north for two minutes (out of Sector 2 into Sector 1), and a jump far
        // outside every sector (one fix: no exit).
        for s in 1...120 { lines.append("\(start + 70 + s),\(42.81 + Double(s) * 10 / 111_000),-1.64,5") }
        lines.append("\(start + 191),42.95,-1.40,5")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-track-\(UUID()).csv")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    struct Event: Decodable {
        var event: String
        var featureID: String
        var sequence: Int
        var visit: String
        var park: Park?
        struct Park: Decodable {
            var sector: Sector
            struct Sector: Decodable { var id: String? }
        }
    }

    @Test func jsonLinesAreTheEventsAndAReplayIsTheSame() throws {
        let url = try Self.trace()
        defer { try? FileManager.default.removeItem(at: url) }
        let run = try GeoqBinaryTests.run(["track", url.path, "--device", "car-1", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let events = try run.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(Event.self, from: Data($0.utf8))
        }
        #expect(events.map(\.event) == ["enter", "dwell", "parked", "left", "exit", "enter"])
        #expect(events.map(\.sequence) == [1, 2, 3, 4, 5, 6])
        #expect(events.prefix(5).allSatisfy { $0.featureID == "2" && $0.visit == events[0].visit })
        #expect(events[5].featureID == "1" && events[5].visit != events[0].visit)
        #expect(events[2].park?.sector.id == "2")
        let again = try GeoqBinaryTests.run(["track", url.path, "--device", "car-1", "--format", "json"])
        #expect(again.stdout == run.stdout)

        let text = try GeoqBinaryTests.run(["track", url.path, "--device", "car-1"])
        #expect(text.status == 0)
        #expect(text.stdout.hasSuffix("\(url.path): 193 fixes, 6 events, 1 ignored (older or repeated)\n"))
    }

    /// Fences of 10 m around the fallas: a phone standing at the falla nearest to the city hall
    /// (as `geoq nearest` finds it) for 90 s, then 1 km away for 10 s; a radius that is not a
    /// number of metres is a usage error.
    @Test func aPointLayerWithARadiusFencesCirclesAroundItsPoints() throws {
        let nearest = try GeoqBinaryTests.run([
            "nearest", "39.4699", "-0.3763", "--layer", "fallas", "-n", "1", "--format", "json",
        ])
        let hit = try #require(
            (try JSONSerialization.jsonObject(with: Data(nearest.stdout.utf8)) as? [String: Any])?["hits"]
                as? [[String: Any]]
        ).first
        let id = try #require(hit?["id"] as? String)
        let position = try #require((hit?["geoURI"] as? String)?.dropFirst(4).split(separator: ","))
        var lines = ["time,lat,lon,accuracy"]
        let start = 1_795_424_400
        for s in 0...90 { lines.append("\(start + s),\(position[0]),\(position[1]),5") }
        for s in 91...100 { lines.append("\(start + s),\(Double(position[0])! + 0.009),\(position[1]),5") }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-track-\(UUID()).csv")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }

        let run = try GeoqBinaryTests.run([
            "track", url.path, "--device", "phone-7", "--layer", "fallas", "--radius", "10", "--format", "json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let events = try run.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(Event.self, from: Data($0.utf8))
        }
        // The same rules as a polygon's: standing there a minute and more is a stay (parked).
        #expect(events.map(\.event) == ["enter", "dwell", "parked", "exit"])
        #expect(events.allSatisfy { $0.featureID == id })
        let negative = try GeoqBinaryTests.run([
            "track", url.path, "--device", "x", "--layer", "fallas", "--radius", "-5",
        ])
        #expect(negative.status == 64 && negative.stderr.contains("--radius"), "\(negative.stderr)")
    }

    @Test func aMissingFileIsExitSixtySix() throws {
        let run = try GeoqBinaryTests.run(["track", "/nonexistent/trace.csv", "--device", "x"])
        #expect(run.status == 66 && run.stderr.contains("/nonexistent/trace.csv"))
    }
}
