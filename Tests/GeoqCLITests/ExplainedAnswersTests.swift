import Foundation
import GeoqParking
import GeoqTestSupport
import Testing

/// `geoq tariff`, `geoq park` and `geoq which-sector` explain themselves: the days and hours a
/// ticket skips with their reasons, the same reminders from both parking commands, and an
/// approximate layer's note in the answer's language.
@Suite struct ExplainedAnswersTests {
    func run(_ arguments: [String]) throws -> GeoqBinaryTests.Run { try GeoqBinaryTests.run(arguments) }

    func json<T: Decodable>(_ type: T.Type, _ arguments: [String]) throws -> T {
        let r = try run(arguments + ["--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        return try JSONDecoder().decode(T.self, from: Data(r.stdout.utf8))
    }

    /// The English approximation note of the default sector layer, as data/layers.json writes
    /// it, cut into its sentences and clauses.
    static func englishNoteClauses() throws -> [String] {
        let url = TestData.packageRoot.appendingPathComponent("data/layers.json")
        let catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        let layers = catalog["layers"] as! [[String: Any]]
        let sectors = try #require(layers.first { $0["name"] as? String == "pamplona-sectors" })
        let note = try #require((sectors["approximate"] as? [String: Any])?["en"] as? String)
        return note.split(whereSeparator: { ";.".contains($0) }).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.count > 12 }
    }

    /// Saturday 28 November 2026 13:30 + 45 min ends on Tuesday 1 December 08:45: Sunday 29 and
    /// San Saturnino (Monday 30, Pamplona's holiday) are named, in each language.
    @Test func tariffNamesSundayAndSanSaturnino() throws {
        let ticket = ["tariff", "--zone", "blue", "--minutes", "45", "--start", "2026-11-28T13:30"]
        let expected = [
            "es": ("domingo 29/11/2026, los domingos no hay horario regulado", "festivo: San Saturnino"),
            "eu": ("igandea 2026/11/29, igandeetan ez dago ordutegi arauturik", "jaieguna: San Saturnino"),
            "en": ("Sunday 29/11/2026, no regulated hours on Sundays", "public holiday: Saint Saturninus' Day"),
        ]
        for (language, (sunday, holiday)) in expected {
            let answer = try json(TariffAnswer.self, ticket + ["--lang", language])
            #expect(answer.end == "2026-12-01T08:45:00+01:00")
            #expect(answer.pauses.count == 1)
            let pause = try #require(answer.pauses.first)
            #expect(pause.from == "2026-11-28T14:00:00+01:00" && pause.until == "2026-12-01T08:30:00+01:00")
            #expect(pause.days.map(\.date) == ["2026-11-29", "2026-11-30"])
            #expect(pause.days.map { $0.reasons.map(\.kind) } == [["no-hours-today"], ["holiday"]])
            #expect(pause.days[1].reasons[0].calendar == "es-nc-pamplona")
            #expect(answer.messages.contains(pause.message))
            #expect(pause.message.contains(sunday) && pause.message.contains(holiday), "\(pause.message)")
            let text = try run(ticket + ["--lang", language])
            #expect(text.stdout.contains(sunday) && text.stdout.contains(holiday))
        }
    }

    /// A ticket bought at 21:00 on a Monday waits for 08:30 on Tuesday: "free until" says so,
    /// and the pause (kept in `pauses`) is not said a second time. One bought on a Sunday says
    /// why the Sunday is free.
    @Test func aTicketBoughtOutsideHoursIsExplainedOnce() throws {
        let evening = try json(
            TariffAnswer.self,
            ["tariff", "--zone", "blue", "--minutes", "30", "--start", "2026-11-23T21:00", "--lang", "en"])
        #expect(evening.end == "2026-11-24T09:00:00+01:00")
        #expect(evening.pauses.map(\.from) == ["2026-11-23T21:00:00+01:00"])
        #expect(evening.pauses.map(\.until) == ["2026-11-24T08:30:00+01:00"])
        #expect(!evening.messages.contains(evening.pauses[0].message))
        #expect(
            evening.messages.contains { $0.hasPrefix("Free until Tuesday 24/11/2026 08:30") }, "\(evening.messages)")

        let sunday = try json(
            TariffAnswer.self,
            ["tariff", "--zone", "blue", "--minutes", "30", "--start", "2026-11-22T11:00", "--lang", "en"])
        #expect(sunday.end == "2026-11-23T09:00:00+01:00")
        let pause = try #require(sunday.pauses.first)
        #expect(pause.from == "2026-11-22T11:00:00+01:00" && pause.until == "2026-11-23T08:30:00+01:00")
        #expect(pause.days.map(\.date) == ["2026-11-22"])
        #expect(pause.days.map { $0.reasons.map(\.kind) } == [["no-hours-today"]])
        #expect(pause.outsideHours)  // Monday 00:00-08:30
        #expect(sunday.messages.contains(pause.message))
        #expect(pause.message.contains("Sunday 22/11/2026, no regulated hours on Sundays"), "\(pause.message)")
    }

    @Test func tariffExplainsTheLunchBreakAndSanFermin() throws {
        let lunch = try json(
            TariffAnswer.self, ["tariff", "--zone", "blue", "--minutes", "30", "--start", "2026-11-23T13:50"])
        #expect(lunch.pauses.map(\.from) == ["2026-11-23T14:00:00+01:00"])
        #expect(lunch.pauses.map(\.until) == ["2026-11-23T16:00:00+01:00"])
        #expect(lunch.pauses[0].days.isEmpty && lunch.pauses[0].outsideHours)
        #expect(
            lunch.messages.contains(
                "El tique no corre el lunes 23/11/2026 de 14:00 a 16:00: fuera del horario regulado."))
        let july = try json(
            TariffAnswer.self,
            ["tariff", "--zone", "blue", "--minutes", "45", "--start", "2026-07-04T13:30", "--lang", "en"])
        #expect(july.end == "2026-07-27T08:45:00+02:00")
        let days = try #require(july.pauses.first?.days)
        #expect(days.count == 22)
        let seventh = try #require(days.first { $0.date == "2026-07-07" })
        #expect(seventh.reasons.map(\.kind) == ["holiday", "exemption"])
        #expect(seventh.reasons.map(\.name) == ["Saint Fermin's Day", "San Fermín (6 to 25 July)"])
        #expect(seventh.reasons[1].rule == "Jul 06-Jul 25 off")
        #expect(
            july.messages.contains {
                $0.contains("Monday 06/07/2026 to Saturday 25/07/2026, exempt by the tariff: San Fermín (6 to 25 July)")
            })
    }

    /// The same ticket asked of both commands gives the same reminders and pauses.
    @Test func parkGivesTariffsReminders() throws {
        let ticket = ["--zone", "blue", "--minutes", "45", "--reminder", "5,10,15"]
        let tariff = try json(TariffAnswer.self, ["tariff"] + ticket + ["--start", "2026-11-28T13:30"])
        let park = try json(ParkAnswer.self, ["park", "42.8169", "-1.6440"] + ticket + ["--at", "2026-11-28T13:30"])
        #expect(tariff.reminders.count == 3)
        #expect(park.reminders == tariff.reminders)
        #expect(park.ticket?.pauses == tariff.pauses)
        // 5 min before Tuesday 08:45 is 08:40, inside Tuesday's regulated minutes.
        #expect(park.reminders.map(\.at).first == "2026-12-01T08:40:00+01:00")
        // The raw JSON has the same array under the same key.
        let raw = try run(["park", "42.8169", "-1.6440", "--format", "json", "--at", "2026-11-28T13:30"] + ticket)
        let object = try JSONSerialization.jsonObject(with: Data(raw.stdout.utf8)) as! [String: Any]
        #expect((object["reminders"] as? [[String: Any]])?.compactMap { $0["minutesBefore"] as? Int } == [5, 10, 15])
    }

    @Test func parkInSpanishAndBasqueHasNoEnglishNote() throws {
        let clauses = try Self.englishNoteClauses()
        #expect(clauses.count >= 2)
        for language in ["es", "eu"] {
            for format in ["text", "json"] {
                let r = try run([
                    "park", "42.81", "-1.64", "--zone", "blue", "--minutes", "30", "--at", "2026-11-23T10:00",
                    "--lang", language, "--format", format,
                ])
                #expect(r.status == 0, "\(r.stderr)")
                for clause in clauses { #expect(!r.stdout.contains(clause), "\(language) \(format): \(clause)") }
            }
        }
        let spanish = try json(
            ParkAnswer.self, ["park", "42.81", "-1.64", "--at", "2026-11-23T10:00", "--lang", "es"])
        #expect(spanish.sector.approximation?.hasPrefix("Los sectores 1, 2 y 4 se aproximan") == true)
        let english = try json(
            ParkAnswer.self, ["park", "42.81", "-1.64", "--at", "2026-11-23T10:00", "--lang", "en"])
        #expect(english.sector.approximation?.contains(clauses[0]) == true)
    }

    @Test func whichSectorNoteInTheLanguageAsked() throws {
        let clauses = try Self.englishNoteClauses()
        let english = try run(["which-sector", "42.81", "-1.64", "--format", "json"])
        #expect(clauses.allSatisfy { english.stdout.contains($0) })
        let basque = try run(["which-sector", "42.81", "-1.64", "--format", "json", "--lang", "eu"])
        #expect(basque.status == 0)
        #expect(basque.stdout.contains("1., 2. eta 4. sektoreak udalaren auzo-unitateekin hurbiltzen dira"))
        #expect(clauses.allSatisfy { !basque.stdout.contains($0) })
        let spanishText = try run(["which-sector", "42.81", "-1.64", "--lang", "es"])
        #expect(spanishText.stdout.contains("Aproximado: Los sectores 1, 2 y 4"))
        #expect(try run(["which-sector", "42.81", "-1.64", "--lang", "fr"]).status == 64)
    }

    /// The text answer speaks the language asked throughout, for the same figures as the
    /// English one (sector 2 for 42.81, -1.64; Madrid's nearest is sector 4; swapped numbers).
    @Test func whichSectorTextInSpanishAndBasque() throws {
        let english = try run(["which-sector", "42.81", "-1.64"]).stdout
        let inside = try #require(english.split(separator: "\n").first)
        // "… of pamplona-sectors, 412.3 m inside its edge." → the distance as written.
        let distance = try #require(inside.split(separator: ", ").last?.replacing(" inside its edge.", with: ""))
        // Madrid is 300-odd km from Iturrama: "… Iturrama (id 4), 354.1 km away." in English is
        // "a 354,1 km." in Spanish (a decimal comma).
        let madrid = try run(["which-sector", "40.4168", "-3.7038"]).stdout
        let km = try #require(madrid.split(separator: "(id 4), ").last?.split(separator: " away.").first)
        #expect(km.hasSuffix(" km") && km.contains("."), "\(madrid)")
        let kmInSpanish = km.replacing(".", with: ",")
        let cases: [(String, [String], [String])] = [
            (
                "es", ["42.81", "-1.64"],
                [
                    "42.81, -1.64 está en Sector 2 — Ensanches (id 2) de pamplona-sectors, a \(distance) dentro de su borde."
                ]
            ),
            (
                "eu", ["42.81", "-1.64"],
                [
                    "42.81, -1.64 Sector 2 — Ensanches (id 2) barruan dago (pamplona-sectors), ertzetik \(distance) barrurago."
                ]
            ),
            (
                "es", ["40.4168", "-3.7038"],
                [
                    "40.4168, -3.7038 está fuera de todos los elementos de pamplona-sectors. Más cercano: Sector 4 — Iturrama (id 4), a \(kmInSpanish)."
                ]
            ),
            (
                "eu", ["-1.64", "42.81"],
                [
                    "Oharra: zenbakiak trukatuta daudela dirudi: 42.81 latitudea, -1.64 longitudea Sector 2 — Ensanches barruan dago (pamplona-sectors)."
                ]
            ),
            (
                "es", ["-1.64", "42.81"],
                [
                    "Pista: los números parecen intercambiados: latitud 42.81, longitud -1.64 está en Sector 2 — Ensanches (pamplona-sectors)."
                ]
            ),
        ]
        let englishWords = ["is in", "is outside", "Nearest", "Hint", "inside its edge", "Approximate:"]
        for (language, point, expected) in cases {
            let r = try run(["which-sector"] + point + ["--lang", language])
            for line in expected { #expect(r.stdout.contains(line), "\(r.stdout)") }
            for word in englishWords { #expect(!r.stdout.contains(word), "\(language): \(word) in \(r.stdout)") }
        }
    }
}
