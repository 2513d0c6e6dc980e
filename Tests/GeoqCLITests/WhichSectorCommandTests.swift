import ArgumentParser
import Foundation
import GeoqFormats
import GeoqLayers
import GeoqTestSupport
import Testing

@testable import GeoqCLI
@testable import GeoqCommands

/// In-process tests of argument parsing and of the command's work.
@Suite struct WhichSectorCommandTests {
    /// NOTES.md: swift-argument-parser reads `-1.64` as an option unless told otherwise.
    /// The README's exact command line must parse.
    @Test func readmeCommandLineParses() throws {
        let command = try Geoq.parseAsRoot(["which-sector", "42.81", "-1.64"])
        let whichSector = try #require(command as? WhichSector)
        #expect(whichSector.coordinates == ["42.81", "-1.64"])
        #expect(whichSector.layer == "pamplona-sectors")
    }

    @Test(arguments: [
        (["42.81", "-1.64"], 42.81, -1.64),
        (["42.81,", "-1.64"], 42.81, -1.64),  // as copied from a map
        (["42.81,-1.64"], 42.81, -1.64),
        (["-90", "180"], -90.0, 180.0),
    ])
    func coordinatesAreLatitudeFirst(words: [String], lat: Double, lon: Double) throws {
        let p = try CoordinateInput.point(fromArguments: words)
        #expect(p.latitude == lat && p.longitude == lon)
    }

    @Test(arguments: [
        (["95", "-1.64"], "latitude 95.0 is outside [-90, 90]"),
        (["42.81", "-181"], "longitude -181.0 is outside [-180, 180]"),
        (["nan", "1"], "latitude 'nan' is not a finite number"),
        (["42.81", "inf"], "longitude 'inf' is not a finite number"),
        (["abc", "1"], "latitude 'abc' is not a number"),
        (["42.81"], "missing LON"),
        ([], "missing LAT and LON"),
        (["1", "2", "3"], "expected two numbers (LAT LON), got 3"),
        (["42.81", "--lyer", "x"], "unknown option '--lyer'"),
        (["-1.64", "182.81"], "longitude 182.81 is outside [-180, 180]"),
        (["142.81", "-1.64"], "did you put the longitude first?"),
    ])
    func badCoordinatesAreNamed(words: [String], message: String) {
        do {
            _ = try CoordinateInput.point(fromArguments: words)
            Issue.record("\(words) must be refused")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func batchReaderHandlesCSVHeadersJSONAndBadLines() throws {
        var reader = BatchReader()
        let lines = [
            "lon,lat", "-1.64,42.81", "", "# comment", "{\"lat\": 42.805, \"lng\": -1.655, \"id\": 7}",
            "42.81", "{\"lat\": \"x\", \"lon\": 1}", "200,1",
        ]
        let items = lines.enumerated().compactMap { reader.item(line: $1, number: $0 + 1) }
        #expect(items.map(\.line) == [2, 5, 6, 7, 8])
        #expect(try items[0].result.get() == .init(latitude: 42.81, longitude: -1.64), "the header put lon first")
        #expect(items[1].id == "7")
        #expect(try items[1].result.get() == .init(latitude: 42.805, longitude: -1.655))
        for (item, message) in zip(
            items[2...],
            [
                "line 6: expected 'lat,lon'", "line 7: \"lat\" and \"lon\" must be numbers",
                "line 8: longitude 200.0 is outside",
            ])
        {
            guard case .failure(let error) = item.result else {
                Issue.record("line \(item.line) must fail")
                continue
            }
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test func executeAnswersInProcess() throws {
        let command = try #require(try Geoq.parseAsRoot(["which-sector", "42.81", "-1.64"]) as? WhichSector)
        var output = ""
        let status = try command.execute(input: { nil }, output: &output)
        #expect(status == 0)
        #expect(output.contains("is in Sector 2 — Ensanches (id 2) of pamplona-sectors"))
        #expect(output.contains("Approximate:"))
    }
}
