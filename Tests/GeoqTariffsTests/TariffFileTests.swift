import Foundation
import GeoqTariffs
import Testing

@Suite struct TariffFileTests {
    let holidays = Pamplona.dataDirectory.appendingPathComponent("holidays")

    func decode(_ transform: (inout [String: Any]) -> Void) throws(TariffError) -> CityTariffs {
        let url = Pamplona.dataDirectory.appendingPathComponent("tariffs/pamplona.json")
        var object = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        transform(&object)
        let data = try! JSONSerialization.data(withJSONObject: object)
        return try CityTariffs.decode(data, file: "t.json", holidaysDirectory: holidays)
    }

    @Test func theRepositoryFileReads() throws {
        let t = try decode { _ in }
        #expect(t.zones.map(\.id) == ["blue", "orange", "red", "green"])
        #expect(t.sectors.first { $0.id == "1" }?.alsoUses == ["2": ["blue", "orange"]])
        #expect(CityTariffs.available(in: Pamplona.dataDirectory.appendingPathComponent("tariffs")) == ["pamplona"])
    }

    @Test func errorsNameTheField() {
        #expect(
            throws: TariffError.fileMalformed(
                file: "t.json", path: "zones[0].residents",
                message: "expected unlimited-in-own-sector, must-pay or residents-only")
        ) {
            try decode { o in
                var zones = o["zones"] as! [[String: Any]]
                zones[0]["residents"] = "everyone"
                o["zones"] = zones
            }
        }
        #expect(
            throws: TariffError.fileMalformed(
                file: "t.json", path: "zones[1].tariffs", message: "line 2 starts at 130, the previous ends at 120")
        ) {
            try decode { o in
                var tariffs = o["tariffs"] as! [String: Any]
                var b = tariffs["B"] as! [[String: Any]]
                b[0]["start_minutes"] = 130
                tariffs["B"] = b
                o["tariffs"] = tariffs
            }
        }
        #expect(
            throws: TariffError.fileMalformed(
                file: "t.json", path: "tariffs.A[1]", message: "0.07 is not a multiple of the coin 0.05")
        ) {
            try decode { o in
                var tariffs = o["tariffs"] as! [String: Any]
                var a = tariffs["A"] as! [[String: Any]]
                a[1]["increment_price"] = 0.07
                tariffs["A"] = a
                o["tariffs"] = tariffs
            }
        }
        #expect(
            throws: TariffError.fileMalformed(
                file: "t.json", path: "time_zone", message: "unknown time zone 'Europe/Pamplona'")
        ) {
            try decode { o in o["time_zone"] = "Europe/Pamplona" }
        }
        #expect(throws: TariffError.fileMalformed(file: "t.json", path: "zones", message: "required field is missing"))
        {
            try decode { o in o["zones"] = nil }
        }
        #expect(throws: TariffError.unknownCity("bilbao", known: ["pamplona"])) {
            try CityTariffs.load(city: "bilbao", dataDirectory: Pamplona.dataDirectory)
        }
    }

    @Test func regulatedHoursErrorsPointAtTheCharacter() throws {
        do {
            _ = try decode { o in o["regulated_hours"] = "Mo-Fr 08:30-14:00; Sa 8:30-14:00" }
            Issue.record("accepted")
        } catch {
            guard case .fileMalformed(_, let path, let message) = error else { Issue.record("\(error)"); return }
            #expect(path == "regulated_hours")
            #expect(message.hasPrefix("opening_hours: expected a time HH:MM at character 23"))
        }
    }
}
