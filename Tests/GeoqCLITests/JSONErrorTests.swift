import Foundation
import Testing

/// `--format json` turns every error into `{"error": {"code", "message"}}` on standard error,
/// the parser's own usage errors included, with the documented exit status.
@Suite struct JSONErrorTests {
    /// The error object of a run, or a failed expectation naming what stderr held instead.
    static func errorObject(_ run: GeoqBinaryTests.Run) throws -> (code: String, message: String) {
        let lines = run.stderr.split(separator: "\n")
        try #require(lines.count == 1, "one JSON line on stderr, got: \(run.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any], "not JSON: \(run.stderr)")
        let error = try #require(object["error"] as? [String: Any])
        return (try #require(error["code"] as? String), try #require(error["message"] as? String))
    }

    @Test(arguments: [
        // A coordinate that is not a number (the example), in both spellings of the option.
        (["which-sector", "abc", "-1.64", "--format", "json"], "latitude 'abc' is not a number"),
        (["which-sector", "abc", "-1.64", "--format=json"], "latitude 'abc' is not a number"),
        // The parser's own errors: unknown option, missing option, bad value.
        (["which-sector", "42.81", "-1.64", "--bogus", "--format", "json"], "--bogus"),
        (["nearest", "39.47", "-0.376", "--format", "json"], "--layer"),
        (["nearest", "39.47", "-0.376", "--layer", "fallas", "-n", "x", "--format", "json"], "'x'"),
        (["which-sector", "42.81", "-1.64", "--format", "json", "--layer"], "--layer"),
        // A command's own validation.
        (["import", "--format", "json"], "SOURCE"),
        (["tariff", "--zone", "blue", "--format", "json"], "--minutes"),
        (["services", "39.47", "-0.376", "-n", "-2", "--format", "json"], "-n"),
    ])
    func usageErrorsAreJSONWithStatus64(arguments: [String], mentions: String) throws {
        let run = try GeoqBinaryTests.run(arguments)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        let error = try Self.errorObject(run)
        #expect(error.code == "bad-arguments")
        #expect(error.message.contains(mentions), "\(error.message)")
        #expect(!error.message.contains("Usage:"))
    }

    @Test func withoutJSONTheUsageErrorStaysText() throws {
        let run = try GeoqBinaryTests.run(["which-sector", "abc", "-1.64"])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: latitude 'abc' is not a number"))
        #expect(run.stderr.contains("Usage: geoq which-sector"))
    }

    @Test func unknownStoredLayerIsJSON() throws {
        let run = try GeoqBinaryTests.run(["info", "no-such-layer", "--format", "json"])
        #expect(run.status == 64)
        let error = try Self.errorObject(run)
        #expect(error.code == "unknown-layer")
        #expect(error.message.contains("'no-such-layer'"))
    }

    @Test func missingUserFileIsJSONWithStatus66() throws {
        let run = try GeoqBinaryTests.run(["import", "/nonexistent/mine.geojson", "--layer", "x", "--format", "json"])
        #expect(run.status == 66)
        let error = try Self.errorObject(run)
        #expect(error.code == "file-missing")
        #expect(error.message.contains("/nonexistent/mine.geojson"))
        #expect(!error.message.contains("GEOQ_DATA_DIR"))
    }

    @Test func helpIsNotAnError() throws {
        let run = try GeoqBinaryTests.run(["which-sector", "--help", "--format", "json"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("OVERVIEW"))
    }
}
