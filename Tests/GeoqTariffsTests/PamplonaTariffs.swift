import Foundation
import GeoqSchedule
import GeoqTariffs
import GeoqTestSupport

enum Pamplona {
    static let dataDirectory = TestData.packageRoot.appendingPathComponent("data")
    static let tariffs = try! CityTariffs.load(city: "pamplona", dataDirectory: dataDirectory)

    /// A wall-clock time in Pamplona.
    static func at(_ text: String) -> Date { try! tariffs.clock.parse(text)! }
    static func iso(_ instant: Date) -> String { tariffs.clock.iso8601(instant) }
}
