import Foundation
import GeoqTestSupport
import Testing

/// One answer of every command, byte for byte: the built `geoq`'s stdout and exit status compared
/// with a file in Tests/GeoqCLITests/Golden. They guard that moving code between modules leaves
/// every answer as it was.
///
/// `GEOQ_UPDATE_GOLDEN=1 swift test --filter GoldenAnswerTests` writes the files instead of
/// comparing; read the changed files before committing them, they are the answers users get.
///
/// Only what depends on the clock or the machine is normalised, each where it is read: the paths
/// of temporary files and of the data directory, the import and refresh times and the ages
/// measured from them (Golden.normalisingClock names the fields).
@Suite struct GoldenAnswerTests {
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden")

    /// Runs `geoq arguments` and compares its stdout (after `normalise`) with `Golden/<name>`.
    func expectGolden(
        _ name: String, _ arguments: [String], stdin: String = "", environment: [String: String] = [:],
        status: Int32 = 0, normalise: (String) -> String = { $0 }, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let run = try GeoqBinaryTests.run(arguments, stdin: stdin, environment: environment)
        #expect(
            run.status == status, "geoq \(arguments.joined(separator: " ")): \(run.stderr)",
            sourceLocation: sourceLocation)
        let file = Self.goldenDirectory.appendingPathComponent(name)
        if let mismatch = try Golden.mismatch(Data(normalise(run.stdout).utf8), file: file) {
            Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
        }
    }

    /// A fresh directory for a store and the files a test writes.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-golden-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func whichSector() throws {
        try expectGolden("which-sector.txt", ["which-sector", "42.81", "-1.64"])
        try expectGolden("which-sector.json", ["which-sector", "42.81", "-1.64", "--format", "json"])
        try expectGolden("which-sector-es.txt", ["which-sector", "42.81", "-1.64", "--lang", "es"])
    }

    @Test func whichSectorBatch() throws {
        try expectGolden(
            "which-sector-batch.ndjson", ["which-sector", "--batch", "--format", "json"],
            stdin: "lat,lon,id\n42.81,-1.64,a\n42.8169,-1.6440,b\n42.80,-1.66,c\n")
    }

    @Test func nearest() throws {
        try expectGolden(
            "nearest-fallas.json", ["nearest", "39.4699", "-0.3763", "--layer", "fallas", "--format", "json"])
    }

    @Test func services() throws {
        try expectGolden("services.json", ["services", "39.4699", "-0.3763", "--format", "json"])
    }

    @Test func ar() throws {
        try expectGolden(
            "ar.json",
            [
                "ar", "39.4699", "-0.3763", "--heading", "20", "--pitch", "5", "--max-distance", "800", "--format",
                "json",
            ])
    }

    @Test func trip() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("trace.csv")
        try
            "time,lat,lon\n2026-11-22T08:00:00Z,42.81,-1.64\n2026-11-22T08:01:00Z,42.82,-1.64\n2026-11-22T08:02:30Z,42.83,-1.65\n"
            .write(to: trace, atomically: true, encoding: .utf8)
        // The trace's path is a fresh temporary one; the answer may name it.
        try expectGolden("trip.json", ["trip", trace.path, "--format", "json"]) {
            Golden.replacingPath(directory.path, with: "<temporary directory>", in: $0)
        }
    }

    @Test func tariff() throws {
        let ticket = ["tariff", "--zone", "blue", "--minutes", "45", "--start", "2026-11-23T13:50", "--reminder", "10"]
        try expectGolden("tariff.json", ticket + ["--format", "json"])
        try expectGolden("tariff.txt", ticket)
    }

    @Test func park() throws {
        try expectGolden(
            "park.json",
            [
                "park", "42.8169", "-1.6440", "--at", "2026-11-23T13:50", "--zone", "blue", "--minutes", "45",
                "--format", "json",
            ])
    }

    @Test func incidents() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.gpkg").path
        let feed = TestData.url("georss/feedparser-geo-tests/tests/wellformed/geo/georss_point.xml").path
        let refresh = try GeoqBinaryTests.run(["incidents", "refresh", "--feed", feed, "--store", store])
        try #require(refresh.status == 0, "\(refresh.stderr)")
        // The refresh and the item's sighting are stamped with the clock of the run.
        try expectGolden("incidents.json", ["incidents", "--format", "json", "--store", store]) {
            Golden.normalisingClock($0)
        }
    }

    @Test func layers() throws {
        // Each layer names its source file under the data directory.
        try expectGolden("layers.json", ["layers", "--format", "json"], normalise: Self.normalisingDataDirectory)
    }

    @Test func info() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.gpkg").path
        let imported = try GeoqBinaryTests.run(["import", "--all", "--store", store])
        try #require(imported.status == 0, "\(imported.stderr)")
        // The import time is the run's; the source is a file of the data directory.
        try expectGolden(
            "info-pamplona-sectors.json", ["info", "pamplona-sectors", "--format", "json", "--store", store]
        ) {
            Golden.normalisingClock(Self.normalisingDataDirectory($0))
        }
    }

    @Test func importSummary() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("squares.geojson")
        try """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "id": "north", "properties": {"name": "North"},
           "geometry": {"type": "Polygon", "coordinates": [[[-1.65,42.81],[-1.64,42.81],[-1.64,42.82],[-1.65,42.82],[-1.65,42.81]]]}},
          {"type": "Feature", "id": "south", "properties": {"name": "South"},
           "geometry": {"type": "Polygon", "coordinates": [[[-1.65,42.80],[-1.64,42.80],[-1.64,42.81],[-1.65,42.81],[-1.65,42.80]]]}}
        ]}
        """.write(to: source, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("store.gpkg").path
        // The summary names the temporary store.
        try expectGolden(
            "import.json", ["import", source.path, "--layer", "squares", "--store", store, "--format", "json"]
        ) {
            Golden.replacingPath(directory.path, with: "<temporary directory>", in: $0)
        }
    }

    /// The data directory's path, which is the machine's, in answers that name their source.
    static func normalisingDataDirectory(_ text: String) -> String {
        Golden.replacingPath(TestData.directory.path, with: "<data directory>", in: text)
    }
}
