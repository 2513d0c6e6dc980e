import Foundation
import GeoqSchedule
import GeoqTestSupport
import Testing

@Suite struct EasterTests {
    /// Easter Sundays from the published tables (the extremes included: 22 March and 25 April).
    @Test(arguments: [
        (2024, "2024-03-31"), (2025, "2025-04-20"), (2026, "2026-04-05"), (2027, "2027-03-28"),
        (2028, "2028-04-16"), (2029, "2029-04-01"), (2030, "2030-04-21"), (1818, "1818-03-22"),
        (1943, "1943-04-25"), (2038, "2038-04-25"), (2285, "2285-03-22"), (1583, "1583-04-10"),
    ])
    func publishedDates(year: Int, expected: String) {
        #expect(Easter.sunday(of: year).description == expected)
    }

    /// Every year 1583–4099 against python-dateutil's `easter` (an independent implementation).
    @Test(.enabled(if: PythonOracle.available, PythonOracle.missing))
    func agreesWithDateutil() throws {
        let lines = try PythonOracle.run(
            "from dateutil.easter import easter\nfor y in range(1583, 4100): print(y, easter(y).isoformat())")
        var checked = 0
        for line in lines {
            let parts = line.split(separator: " ")
            #expect(Easter.sunday(of: Int(parts[0])!).description == parts[1], "Easter \(parts[0])")
            checked += 1
        }
        #expect(checked == 4099 - 1583 + 1)
    }
}

/// Runs Python with the oracle packages fetched by `tools/fetch-benchmark-data.sh holidays`.
enum PythonOracle {
    static let directory = TestData.external("python-holidays")
    static let available = FileManager.default.fileExists(atPath: directory.appendingPathComponent(".complete").path)
    static let missing: Comment = "holiday oracles not fetched: run tools/fetch-benchmark-data.sh holidays"

    static func run(_ script: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        process.environment = ["PYTHONPATH": directory.path, "PATH": "/usr/bin:/bin:/usr/local/bin"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
