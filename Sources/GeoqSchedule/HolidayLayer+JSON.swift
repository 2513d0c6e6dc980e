import Foundation

extension HolidayLayer {
    /// Reads a layer file (data/holidays/*.json); errors name the file and the field.
    ///
    /// ```json
    /// { "id": "es-nc", "title": "...", "source": "...", "covers": [2024, 2030],
    ///   "published_through": 2026,
    ///   "rules": [ { "date": "12-03", "name": { "es": "...", "eu": "...", "en": "..." } },
    ///              { "easter": -3, "name": {...} },
    ///              { "date": "07-25", "only_years": [2024, 2025], "name": {...} } ],
    ///   "one_off": [ { "date": "2026-11-02", "name": {...} } ] }
    /// ```
    public static func load(contentsOf url: URL) throws(ScheduleError) -> HolidayLayer {
        let file = url.lastPathComponent
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .calendarMalformed(file: url.path, path: "(file)", message: "cannot be read")
        }
        return try decode(data, file: file)
    }

    public static func decode(_ data: Data, file: String) throws(ScheduleError) -> HolidayLayer {
        let dto: LayerFile
        do { dto = try DataFileDecoding.decode(LayerFile.self, from: data) } catch {
            throw .calendarMalformed(file: file, path: error.path, message: error.message)
        }
        func fail(_ path: String, _ message: String) -> ScheduleError {
            .calendarMalformed(file: file, path: path, message: message)
        }
        guard dto.covers.count == 2, dto.covers[0] <= dto.covers[1] else {
            throw fail("covers", "expected [first year, last year]")
        }
        var rules: [Rule] = []
        for (i, rule) in dto.rules.enumerated() {
            let when: Rule.When
            switch (rule.date, rule.easter) {
            case (let date?, nil):
                let parts = date.split(separator: "-")
                guard parts.count == 2, let m = Int(parts[0]), let d = Int(parts[1]),
                    CivilDate(year: 2000, month: m, day: d) != nil
                else { throw fail("rules[\(i)].date", "expected MM-DD, found '\(date)'") }
                when = .monthDay(month: m, day: d)
            case (nil, let offset?):
                guard abs(offset) <= 70 else { throw fail("rules[\(i)].easter", "offset \(offset) is implausible") }
                when = .easter(offset: offset)
            default:
                throw fail("rules[\(i)]", "give exactly one of 'date' (MM-DD) or 'easter' (days from Easter Sunday)")
            }
            rules.append(
                Rule(
                    when: when, name: rule.name, onlyYears: rule.only_years.map(Set.init),
                    exceptYears: Set(rule.except_years ?? [])))
        }
        var oneOff: [CivilDate: LocalizedText] = [:]
        for (i, day) in (dto.one_off ?? []).enumerated() {
            guard let date = CivilDate(iso: day.date) else {
                throw fail("one_off[\(i)].date", "expected YYYY-MM-DD, found '\(day.date)'")
            }
            oneOff[date] = day.name
        }
        return HolidayLayer(
            id: dto.id, title: dto.title, source: dto.source, covers: dto.covers[0]...dto.covers[1],
            publishedThrough: dto.published_through, rules: rules, oneOff: oneOff)
    }

    // The file's shape; field names as written in the JSON.
    private struct LayerFile: Decodable {
        struct RuleEntry: Decodable {
            var date: String?
            var easter: Int?
            var name: LocalizedText
            var only_years: [Int]?
            var except_years: [Int]?
        }
        struct OneOffEntry: Decodable {
            var date: String
            var name: LocalizedText
        }
        var id: String
        var title: String
        var source: String
        var covers: [Int]
        var published_through: Int
        var rules: [RuleEntry]
        var one_off: [OneOffEntry]?
    }
}
