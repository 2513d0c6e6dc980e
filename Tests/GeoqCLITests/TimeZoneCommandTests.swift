import ArgumentParser
import Foundation
import GeoqLayers
import GeoqQuery
import GeoqTestSupport
import Testing

@testable import GeoqCLI
@testable import GeoqCommands

/// `geoq which-sector LAT LON --layer timezones`: the zone and the local time, and a clear
/// message naming the fetch command when the time zones are not there.
@Suite struct TimeZoneCommandTests {
    static let timeZones = TestData.packageRoot.appendingPathComponent("data/external/timezones/timezones.geojson")
    static let fetched = FileManager.default.fileExists(atPath: timeZones.path)

    /// A copy of the catalog in a folder without `external/`.
    static func catalogWithoutTheData() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-tz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("layers.json")
        try FileManager.default.copyItem(at: TestData.packageRoot.appendingPathComponent("data/layers.json"), to: file)
        return file
    }

    @Test func withoutTheDataTheCommandNamesTheFetchCommand() throws {
        let catalog = try Self.catalogWithoutTheData()
        defer { try? FileManager.default.removeItem(at: catalog.deletingLastPathComponent()) }
        let environment = ["GEOQ_CATALOG": catalog.path]
        let text = try GeoqBinaryTests.run(
            ["which-sector", "40.4", "-3.7", "--layer", "timezones"], environment: environment)
        #expect(text.status == 66)
        #expect(text.stderr.contains("run `tools/fetch-benchmark-data.sh timezones`"))
        let json = try GeoqBinaryTests.run(
            ["which-sector", "40.4", "-3.7", "--layer", "timezones", "--format", "json"], environment: environment)
        #expect(json.status == 66)
        #expect(json.stderr.contains(#""code":"data-file-missing""#))
        // The other layers answer as before, and the listing leaves the optional layer out.
        #expect(try GeoqBinaryTests.run(["which-sector", "42.81", "-1.64"], environment: environment).status == 0)
        let layers = try GeoqBinaryTests.run(["layers"], environment: environment)
        #expect(layers.status == 0 && !layers.stdout.contains("timezones"))
        let optedIn = try GeoqBinaryTests.run(
            ["layers"], environment: environment.merging(["GEOQ_OPTIONAL_LAYERS": "timezones"]) { $1 })
        #expect(optedIn.stdout.contains("timezones\t(not imported)"))
        #expect(optedIn.stdout.contains("[data not fetched: run tools/fetch-benchmark-data.sh timezones]"))
    }

    @Test func atMustBeAnInstantWithAnOffset() throws {
        #expect(throws: (any Error).self) {
            _ = try Geoq.parseAsRoot(["which-sector", "40.4", "-3.7", "--at", "2026-07-15T12:00:00"])
        }
        let command = try Geoq.parseAsRoot(["which-sector", "40.4", "-3.7", "--at", "2026-07-15T12:00:00Z"])
        #expect((command as? WhichSector)?.at == "2026-07-15T12:00:00Z")
    }

    /// The text answer's time line, in each language.
    @Test func theTextAnswerGivesTheZoneAndTheLocalTime() throws {
        let time = LocalTime(
            zone: "Europe/Madrid", timeZone: TimeZone(identifier: "Europe/Madrid"),
            at: try #require(LocalTime.instant(parsing: "2026-07-15T12:00:00Z")))
        #expect(
            AnswerRenderer.text(time, language: .en)
                == "Time zone: Europe/Madrid, UTC+02:00; local time 2026-07-15T14:00:00+02:00.")
        #expect(
            AnswerRenderer.text(time, language: .es)
                == "Huso horario: Europe/Madrid, UTC+02:00; hora local 2026-07-15T14:00:00+02:00.")
    }

    /// Madrid in July is UTC+2 (EU summer time, from the last Sunday of March).
    @Test(.enabled(if: fetched, "the time zones are not fetched: run tools/fetch-benchmark-data.sh timezones"))
    func madridInSummer() throws {
        let r = try GeoqBinaryTests.run([
            "which-sector", "40.4168", "-3.7038", "--layer", "timezones", "--at", "2026-07-15T12:00:00Z", "--format",
            "json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let answer = try JSONDecoder().decode(SectorAnswer.self, from: Data(r.stdout.utf8))
        #expect(answer.inside.map(\.id) == ["Europe/Madrid"])
        #expect(answer.timeZone?.zone == "Europe/Madrid")
        #expect(answer.timeZone?.utcOffset == "+02:00")
        #expect(answer.timeZone?.localTime == "2026-07-15T14:00:00+02:00")
        #expect(answer.swapHint == nil && answer.nearest == nil)
    }
}
