import Foundation
import GeoqSchedule
import GeoqTestSupport

/// The repository's Pamplona calendar (data/holidays) and regulated hours (SPEC §1).
enum Pamplona {
    static let regulatedHours =
        "Mo-Fr 08:30-14:00,16:00-20:00; Sa 08:30-14:00; PH off; easter -1 day off; Jul 06-Jul 25 off"

    static let calendar: HolidayCalendar = {
        let directory = TestData.packageRoot.appendingPathComponent("data/holidays")
        let layers = ["es", "es-nc", "es-nc-pamplona"].map {
            try! HolidayLayer.load(contentsOf: directory.appendingPathComponent("\($0).json"))
        }
        return HolidayCalendar(layers: layers)
    }()

    static let schedule = Schedule(hours: try! OpeningHours(regulatedHours), calendar: calendar)
    static let clock = try! CityClock(timeZoneIdentifier: "Europe/Madrid")
}

/// `2026-11-23 13:50` → a wall-clock minute.
func local(_ text: String) -> LocalDateTime {
    let parts = text.split(separator: " ")
    let date = CivilDate(iso: parts[0])!
    let clock = parts[1].split(separator: ":").map { Int($0)! }
    return LocalDateTime(date: date, minuteOfDay: clock[0] * 60 + clock[1])
}

func date(_ text: String) -> CivilDate { CivilDate(iso: text)! }
