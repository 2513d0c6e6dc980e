import Foundation
import GeoqSchedule

extension CityTariffs {
    /// Decodes a tariff file; every error names the file and the field.
    public static func decode(_ data: Data, file: String, holidaysDirectory: URL) throws(TariffError) -> CityTariffs {
        let dto: TariffFile
        do { dto = try DataFileDecoding.decode(TariffFile.self, from: data) } catch {
            throw .fileMalformed(file: file, path: error.path, message: error.message)
        }
        func fail(_ path: String, _ message: String) -> TariffError {
            .fileMalformed(file: file, path: path, message: message)
        }
        func money(_ euros: Double, _ path: String) throws(TariffError) -> Money {
            let cents = (euros * 100).rounded()
            guard euros > 0, abs(euros * 100 - cents) < 1e-6 else {
                throw fail(path, "\(euros) is not a positive amount in whole cents")
            }
            return Money(cents: Int(cents))
        }

        let clock: CityClock
        do { clock = try CityClock(timeZoneIdentifier: dto.time_zone) } catch {
            throw fail("time_zone", error.description)
        }
        let hours: OpeningHours
        do { hours = try OpeningHours(dto.regulated_hours) } catch { throw fail("regulated_hours", error.description) }
        var layers: [HolidayLayer] = []
        for (i, id) in dto.holidays.enumerated() {
            do {
                layers.append(try HolidayLayer.load(contentsOf: holidaysDirectory.appendingPathComponent("\(id).json")))
            } catch { throw fail("holidays[\(i)]", error.description) }
        }
        guard !layers.isEmpty else { throw fail("holidays", "name at least one calendar layer") }
        let coin = try money(dto.coin, "coin")

        var tables: [String: [RateLine]] = [:]
        for (name, lines) in dto.tariffs {
            tables[name] = []
            for (i, line) in lines.enumerated() {
                let path = "tariffs.\(name)[\(i)]"
                guard line.start_minutes >= 0, line.end_minutes > line.start_minutes else {
                    throw fail(path, "end_minutes must be after start_minutes")
                }
                let pricing: RateLine.Pricing
                switch (line.price, line.increment_price, line.increment_minutes) {
                case (let price?, nil, nil):
                    pricing = .block(try money(price, path + ".price"))
                case (nil, let price?, let minutes?):
                    guard minutes > 0 else { throw fail(path + ".increment_minutes", "must be positive") }
                    pricing = .increment(price: try money(price, path + ".increment_price"), minutes: minutes)
                default:
                    throw fail(path, "give either 'price' (one block) or 'increment_price' and 'increment_minutes'")
                }
                switch pricing {
                case .block(let p), .increment(let p, _):
                    guard p.cents % coin.cents == 0 else {
                        throw fail(path, "\(p.decimal) is not a multiple of the coin \(coin.decimal)")
                    }
                }
                tables[name]!.append(
                    RateLine(start: line.start_minutes, end: line.end_minutes, pricing: pricing, tariff: name))
            }
        }

        var zones: [Zone] = []
        for (i, z) in dto.zones.enumerated() {
            let path = "zones[\(i)]"
            guard let residents = Zone.ResidentRule(rawValue: z.residents) else {
                throw fail(path + ".residents", "expected unlimited-in-own-sector, must-pay or residents-only")
            }
            var lines: [RateLine] = []
            for (j, name) in (z.tariffs ?? []).enumerated() {
                guard let table = tables[name] else { throw fail(path + ".tariffs[\(j)]", "no tariff named '\(name)'") }
                lines += table
            }
            var rates: RateTable?
            if !lines.isEmpty {
                guard lines[0].start == 0 else {
                    throw fail(path + ".tariffs", "the first line must start at minute 0")
                }
                for k in 1..<max(1, lines.count) where lines[k].start != lines[k - 1].end {
                    throw fail(
                        path + ".tariffs",
                        "line \(k) starts at \(lines[k].start), the previous ends at \(lines[k - 1].end)")
                }
                rates = RateTable(lines: lines)
                guard let max = z.max_stay_minutes, max > 0, max <= rates!.maximumMinutes else {
                    throw fail(
                        path + ".max_stay_minutes",
                        "must be positive and within the tariff lines (\(rates!.maximumMinutes) min)")
                }
            }
            zones.append(
                Zone(
                    id: z.id, name: z.name, rates: rates, maxStayMinutes: rates == nil ? nil : z.max_stay_minutes,
                    residents: residents, whoMayPark: z.who_may_park, acceptsTicketsOf: z.accepts_tickets_of ?? [],
                    notes: z.notes ?? []))
        }
        let zoneIDs = Set(zones.map(\.id))
        var sectors: [ResidentSector] = []
        for (i, s) in (dto.sectors ?? []).enumerated() {
            var also: [String: [String]] = [:]
            for (j, use) in (s.residents_also_use ?? []).enumerated() {
                for zone in use.zones where !zoneIDs.contains(zone) {
                    throw fail("sectors[\(i)].residents_also_use[\(j)].zones", "no zone named '\(zone)'")
                }
                also[use.sector] = use.zones
            }
            sectors.append(ResidentSector(id: s.id, name: s.name, alsoUses: also))
        }
        var zoneLayer: ZoneLayerSpec?
        if let z = dto.zone_layer {
            for (value, zone) in z.values.sorted(by: { $0.key < $1.key }) where !zoneIDs.contains(zone) {
                throw fail("zone_layer.values.\(value)", "no zone named '\(zone)'")
            }
            guard z.tolerance_metres > 0, z.tolerance_metres <= 100 else {
                throw fail("zone_layer.tolerance_metres", "expected a distance in metres between 0 and 100")
            }
            zoneLayer = ZoneLayerSpec(
                layer: z.layer, field: z.field, values: z.values, toleranceMetres: z.tolerance_metres)
        }
        var exemptionNames: [String: LocalizedText] = [:]
        for (i, exemption) in (dto.exemptions ?? []).enumerated() {
            guard hours.rules.contains(where: { $0.text == exemption.rule && !$0.isOpen && $0.dates != nil }) else {
                throw fail(
                    "exemptions[\(i)].rule",
                    "'\(exemption.rule)' is not a rule of regulated_hours that closes some dates (write it as there)")
            }
            exemptionNames[exemption.rule] = exemption.name
        }
        return CityTariffs(
            city: dto.city, title: dto.title, source: dto.source, clock: clock,
            schedule: Schedule(hours: hours, calendar: HolidayCalendar(layers: layers)), coin: coin, zones: zones,
            sectors: sectors, sectorLayer: dto.sector_layer, zoneLayer: zoneLayer, exemptionNames: exemptionNames)
    }

    // The file's shape; field names as written in the JSON.
    private struct TariffFile: Decodable {
        struct Line: Decodable {
            var start_minutes: Int
            var end_minutes: Int
            var price: Double?
            var increment_price: Double?
            var increment_minutes: Int?
        }
        struct ZoneEntry: Decodable {
            var id: String
            var name: LocalizedText
            var tariffs: [String]?
            var max_stay_minutes: Int?
            var residents: String
            var who_may_park: LocalizedText
            var accepts_tickets_of: [String]?
            var notes: [LocalizedText]?
        }
        struct SectorEntry: Decodable {
            struct Use: Decodable {
                var sector: String
                var zones: [String]
            }
            var id: String
            var name: String
            var residents_also_use: [Use]?
        }
        var city: String
        var title: LocalizedText
        var source: String
        var time_zone: String
        var holidays: [String]
        var regulated_hours: String
        /// Names for the regulated-hours rules that close dates, by the rule's text.
        var exemptions: [Exemption]?
        struct Exemption: Decodable {
            var rule: String
            var name: LocalizedText
        }
        var coin: Double
        var tariffs: [String: [Line]]
        var zones: [ZoneEntry]
        var sectors: [SectorEntry]?
        var sector_layer: String?
        var zone_layer: ZoneLayerEntry?
        struct ZoneLayerEntry: Decodable {
            var layer: String
            var field: String
            var values: [String: String]
            var tolerance_metres: Double
        }
    }
}
