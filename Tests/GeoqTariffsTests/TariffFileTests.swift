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

    @Test func exemptionsNameRulesOfTheRegulatedHours() throws {
        let t = try decode { _ in }
        #expect(t.exemptionNames["easter -1 day off"]?.en == "Holy Saturday")
        #expect(t.exemptionNames["Jul 06-Jul 25 off"]?.es == "San Fermín (del 6 al 25 de julio)")
        #expect(
            throws: TariffError.fileMalformed(
                file: "t.json", path: "exemptions[1].rule",
                message:
                    "'Jul 07-Jul 25 off' is not a rule of regulated_hours that closes some dates (write it as there)")
        ) {
            try decode { o in
                var exemptions = o["exemptions"] as! [[String: Any]]
                exemptions[1]["rule"] = "Jul 07-Jul 25 off"
                o["exemptions"] = exemptions
            }
        }
        // The file may leave exemptions unnamed: answers then show the rule.
        #expect(try decode { $0["exemptions"] = nil }.exemptionNames.isEmpty)
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

/// A second city is a second file: a made-up test city with its own hours, one layer of
/// holidays and a flat hourly tariff, read from a temporary data directory.
@Suite struct SecondCityTests {
    @Test func aCityIsAddedByWritingAFile() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("geoq-city-\(UUID())")
        defer { try? fm.removeItem(at: root) }
        try fm.createDirectory(at: root.appendingPathComponent("tariffs"), withIntermediateDirectories: true)
        try fm.createDirectory(at: root.appendingPathComponent("holidays"), withIntermediateDirectories: true)
        try fm.copyItem(
            at: Pamplona.dataDirectory.appendingPathComponent("holidays/es.json"),
            to: root.appendingPathComponent("holidays/es.json"))
        try Data(
            #"""
            {"city": "testville", "title": {"es": "Testville", "eu": "Testville", "en": "Testville"},
             "source": "test fixture", "time_zone": "Atlantic/Canary", "holidays": ["es"],
             "regulated_hours": "Mo-Sa 09:00-21:00; PH off", "coin": 0.10,
             "tariffs": {"H": [{"start_minutes": 0, "end_minutes": 240, "increment_price": 0.50, "increment_minutes": 30}]},
             "zones": [{"id": "blue", "name": {"es": "Zona azul", "eu": "Gune urdina", "en": "Blue zone"},
                        "tariffs": ["H"], "max_stay_minutes": 240, "residents": "must-pay",
                        "who_may_park": {"es": "Todos", "eu": "Denak", "en": "Everyone"}}]}
            """#.utf8
        ).write(to: root.appendingPathComponent("tariffs/testville.json"))
        let city = try CityTariffs.load(city: "testville", dataDirectory: root)
        #expect(CityTariffs.available(in: root.appendingPathComponent("tariffs")) == ["testville"])
        // 20:45 + 45 min on Saturday 21 November 2026 (UTC+0 in the Canaries): 15 min on
        // Saturday, Sunday off, 30 min from Monday 09:00.
        let start = try #require(try city.clock.parse("2026-11-21T20:45"))
        let q = try TicketQuote.compute(.minutes(45), zone: "blue", in: city, start: start)
        #expect(q.amount.decimal == "1.00")
        #expect(q.minutes == 60)
        #expect(city.clock.iso8601(q.end) == "2026-11-23T09:30:00+00:00")
        // 8 December is a national holiday: free all day.
        let holiday = try RegulationStatus.at(try #require(try city.clock.parse("2026-12-08T10:00")), in: city)
        #expect(!holiday.regulated)
        #expect(throws: TariffError.notMultipleOfCoin(amount: Money(cents: 105), coin: Money(cents: 10))) {
            try TicketQuote.compute(.amount(Money(cents: 105)), zone: "blue", in: city, start: start)
        }
    }
}
