import Foundation
import GeoqParking
import GeoqTestSupport
import Testing

/// `geoq tariff` and `geoq park` end to end: the SPEC §1 cases, exit statuses, languages, the
/// calendar file.
@Suite struct ParkingCommandTests {
    func run(_ arguments: [String]) throws -> GeoqBinaryTests.Run { try GeoqBinaryTests.run(arguments) }

    func tariff(_ arguments: [String]) throws -> TariffAnswer {
        let r = try run(["tariff"] + arguments + ["--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        return try JSONDecoder().decode(TariffAnswer.self, from: Data(r.stdout.utf8))
    }

    @Test func specFigures() throws {
        let start = ["--start", "2026-11-23T10:00"]
        #expect(try tariff(["--zone", "blue", "--euros", "0.25"] + start).minutes == 10)
        #expect(try tariff(["--zone", "blue", "--euros", "1.00"] + start).minutes == 55)
        #expect(try tariff(["--zone", "blue", "--euros", "2,10"] + start).minutes == 120)
        #expect(try tariff(["--zone", "orange", "--euros", "4.35", "--start", "2026-11-23T08:30"]).minutes == 570)
        for minutes in [53, 54, 55] {
            #expect(try tariff(["--zone", "blue", "--minutes", "\(minutes)"] + start).amount == "1.00")
        }
    }

    @Test func endTimesCountOnlyRegulatedMinutes() throws {
        #expect(
            try tariff(["--zone", "blue", "--minutes", "30", "--start", "2026-11-23T13:50"]).end
                == "2026-11-23T16:20:00+01:00")
        #expect(
            try tariff(["--zone", "blue", "--minutes", "60", "--start", "2026-11-21T13:30"]).end
                == "2026-11-23T09:00:00+01:00")
        let sunday = try tariff(["--zone", "blue", "--minutes", "30", "--start", "2026-11-22T11:00"])
        #expect(sunday.freeUntil == "2026-11-23T08:30:00+01:00")
        #expect(sunday.messages.contains("Gratis hasta el lunes 23/11/2026 08:30: el tique empieza a contar entonces."))
        #expect(
            try tariff(["--zone", "blue", "--minutes", "60", "--start", "2026-03-28T13:30"]).end
                == "2026-03-30T09:00:00+02:00")
    }

    @Test func refusalsExitFiveAndOfferTheMaximum() throws {
        let r = try run([
            "tariff", "--zone", "blue", "--euros", "2.15", "--start", "2026-11-23T10:00", "--format", "json",
        ])
        #expect(r.status == 5)
        #expect(r.stdout.isEmpty)
        let problem = try JSONSerialization.jsonObject(with: Data(r.stderr.utf8)) as! [String: Any]
        let error = problem["error"] as! [String: Any]
        #expect(error["code"] as? String == "beyond-max-stay")
        #expect((error["maximum"] as? [String: Any])?["amount"] as? String == "2.10")
        let coins = try run(["tariff", "--zone", "blue", "--euros", "1.02", "--lang", "en"])
        #expect(coins.status == 5)
        #expect(
            coins.stderr
                == "geoq: error: 1.02 EUR is not a multiple of 0.05 EUR: the machines take coins of 5 cents and up.\n")
        let past = try run([
            "tariff", "--zone", "blue", "--minutes", "10", "--start", "2026-11-23T13:50", "--reminder", "15",
        ])
        #expect(past.status == 5)
        #expect(past.stderr.contains("ya habría pasado"))
    }

    @Test func badArgumentsExit64() throws {
        #expect(try run(["tariff", "--zone", "purple", "--minutes", "10"]).status == 64)
        #expect(try run(["tariff", "--zone", "blue"]).status == 64)
        #expect(try run(["tariff", "--zone", "blue", "--minutes", "10", "--euros", "1"]).status == 64)
        #expect(try run(["tariff", "--zone", "blue", "--euros", "abc"]).status == 64)
        #expect(try run(["tariff", "--zone", "blue", "--minutes", "10", "--city", "bilbao"]).status == 64)
        let gap = try run(["tariff", "--zone", "blue", "--minutes", "10", "--start", "2026-03-29T02:30"])
        #expect(gap.status == 64)
        #expect(gap.stderr.contains("does not exist in Europe/Madrid"))
        #expect(try run(["tariff", "--zone", "blue", "--minutes", "10", "--reminder", "5,x"]).status == 64)
    }

    @Test func calendarFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-ticket-\(UUID()).ics")
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try run([
            "tariff", "--zone", "blue", "--minutes", "30", "--start", "2026-11-23T13:50", "--reminder", "5,10",
            "--ics", file.path, "--lang", "en",
        ])
        #expect(r.status == 0)
        let ics = try String(contentsOf: file, encoding: .utf8)
        #expect(ics.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(ics.contains("DTEND:20261123T152000Z\r\n"))
        #expect(ics.components(separatedBy: "BEGIN:VALARM").count == 3)
        let unwritable = try run(["tariff", "--zone", "blue", "--minutes", "30", "--ics", "/nonexistent/dir/t.ics"])
        #expect(unwritable.status == 74)
    }

    @Test func parkJoinsSectorAndTariff() throws {
        let r = try run([
            "park", "42.81", "-1.64", "--zone", "orange", "--euros", "3", "--at", "2026-11-23T10:00", "--format",
            "json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let answer = try JSONDecoder().decode(ParkAnswer.self, from: Data(r.stdout.utf8))
        #expect(answer.sector.id == "2" && answer.sector.approximate)
        #expect(answer.ticket?.end == "2026-11-23T17:00:00+01:00")
        #expect(answer.regulation.regulated)
    }

    @Test func parkTextInBasqueAndGeoJSON() throws {
        let eu = try run(["park", "42.8169", "-1.6440", "--at", "2026-12-03T10:00", "--lang", "eu"])
        #expect(eu.status == 0)
        #expect(eu.stdout.contains("Doan: jaieguna (Frantzisko Xabierkoa, Nafarroaren eguna)"))
        #expect(eu.stdout.contains("Gune ezezaguna"))
        let geojson = try run(["park", "42.8169", "-1.6440", "--zone", "blue", "--format", "geojson"])
        let feature = try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as! [String: Any]
        #expect(feature["type"] as? String == "Feature")
        #expect((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [-1.644, 42.8169])
        let noZone = try run(["park", "42.8169", "-1.6440", "--minutes", "30"])
        #expect(noZone.status == 64)
        #expect(noZone.stderr.contains("--zone"))
    }
}

/// The zone-layer path of `geoq park` through a catalog of its own: the real sector layer plus a
/// synthetic kerb line (the city's `SEGU_Lin_EsRegZonas` is not in the shared data).
@Suite struct ParkZoneLayerTests {
    @Test func theNearestRegulatedSegmentGivesTheZone() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("geoq-zones-\(UUID())")
        defer { try? fm.removeItem(at: root) }
        let repoData = TestData.packageRoot.appendingPathComponent("data")
        try fm.createDirectory(at: root.appendingPathComponent("tariffs"), withIntermediateDirectories: true)
        try fm.copyItem(at: repoData.appendingPathComponent("holidays"), to: root.appendingPathComponent("holidays"))

        // A kerb 4 m west of the spot, painted blue, and one 40 m east, painted orange.
        let lines = root.appendingPathComponent("zones.geojson")
        try Data(
            """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"id":"k1","COLOR":"AZUL"},
             "geometry":{"type":"LineString","coordinates":[[-1.64405,42.8168],[-1.64405,42.8170]]}},
            {"type":"Feature","properties":{"id":"k2","COLOR":"NARANJA"},
             "geometry":{"type":"LineString","coordinates":[[-1.6435,42.8168],[-1.6435,42.8170]]}}]}
            """.utf8
        ).write(to: lines)

        let catalog =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: repoData.appendingPathComponent("layers.json"))) as! [String: Any]
        var layers = (catalog["layers"] as! [[String: Any]]).filter { $0["name"] as? String == "pamplona-sectors" }
        layers.append([
            "name": "pamplona-zones", "title": "Test kerbs (synthetic)", "source": lines.path, "idField": "id",
            "crs": "EPSG:4326",
        ])
        var newCatalog = catalog
        newCatalog["layers"] = layers
        try JSONSerialization.data(withJSONObject: newCatalog).write(to: root.appendingPathComponent("layers.json"))

        var tariff =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: repoData.appendingPathComponent("tariffs/pamplona.json"))) as! [String: Any]
        tariff["zone_layer"] = [
            "layer": "pamplona-zones", "field": "COLOR", "values": ["AZUL": "blue", "NARANJA": "orange"],
            "tolerance_metres": 10,
        ]
        try JSONSerialization.data(withJSONObject: tariff).write(
            to: root.appendingPathComponent("tariffs/pamplona.json"))

        let r = try GeoqBinaryTests.run(
            ["park", "42.8169", "-1.6440", "--minutes", "30", "--at", "2026-11-23T13:50", "--format", "json"],
            environment: ["GEOQ_CATALOG": root.appendingPathComponent("layers.json").path])
        #expect(r.status == 0, "\(r.stderr)")
        let answer = try JSONDecoder().decode(ParkAnswer.self, from: Data(r.stdout.utf8))
        #expect(answer.zone?.id == "blue" && answer.zone?.source == "zone-layer")
        #expect(answer.ticket?.end == "2026-11-23T16:20:00+01:00")
        // 12 m from the blue kerb, 57 m from the orange one: beyond the 10 m tolerance, no zone.
        let far = try GeoqBinaryTests.run(
            ["park", "42.8169", "-1.6442", "--at", "2026-11-23T13:50", "--format", "json"],
            environment: ["GEOQ_CATALOG": root.appendingPathComponent("layers.json").path])
        #expect(far.status == 0)
        let unknown = try JSONDecoder().decode(ParkAnswer.self, from: Data(far.stdout.utf8))
        #expect(unknown.zone == nil)
        #expect(unknown.notes.first?.hasPrefix("Zona desconocida: ningún tramo regulado a menos de 10 m") == true)
    }
}
