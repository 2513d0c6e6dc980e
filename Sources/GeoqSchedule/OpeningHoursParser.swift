/// Reads the ``OpeningHours`` subset. Grammar (whitespace between tokens is free):
///
/// ```
/// expression := rule (";" rule)*
/// rule       := [dates] [days] [times | "24/7"] ["off" | "closed" | "open"]
/// dates      := monthdays ("," monthdays)* | "easter" [("+" | "-") N ("day" | "days")]
/// monthdays  := Mon [DD] ["-" ([Mon] DD | Mon)]
/// days       := day ("," day)*            day := Wd ["-" Wd] | "PH"
/// times      := HH:MM "-" HH:MM ("," HH:MM "-" HH:MM)*
/// ```
///
/// Every error carries the character offset of the token that could not be read.
struct OpeningHoursParser {
    private let source: String
    private let characters: [Character]
    private var position = 0

    init(_ source: String) {
        self.source = source
        self.characters = Array(source)
    }

    private static let weekdays = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    mutating func parse() throws(ScheduleError) -> OpeningHours {
        var rules: [OpeningHours.Rule] = []
        skipSpaces()
        if position == characters.count { throw error("the expression is empty") }
        while true {
            rules.append(try parseRule())
            skipSpaces()
            if position == characters.count { break }
            if characters[position] == ";" {
                position += 1
                skipSpaces()
                if position == characters.count { throw error("a rule is missing after ';'") }
                continue
            }
            if characters[position] == "|" { throw error("fallback rules ('||') are not supported") }
            throw error("unexpected '\(characters[position])'")
        }
        return OpeningHours(source: source, rules: rules)
    }

    // MARK: Rules

    private mutating func parseRule() throws(ScheduleError) -> OpeningHours.Rule {
        var rule = OpeningHours.Rule(dates: nil, days: nil, times: nil, isOpen: true)
        skipSpaces()
        let start = position
        if peekWord() == "easter" || Self.months.contains(peekWord()) {
            rule.dates = try parseDates()
            skipSpaces()
        }
        let word = peekWord()
        if Self.weekdays.contains(word) || word == "PH" {
            rule.days = try parseDays()
            skipSpaces()
        } else if word == "SH" {
            throw error("school holidays ('SH') are not supported")
        }
        if position < characters.count, characters[position].isNumber {
            if lookingAt("24/7") {
                position += 4
                rule.times = [0..<1440]
            } else {
                rule.times = try parseTimes()
            }
            skipSpaces()
        }
        switch peekWord() {
        case "off", "closed":
            position += peekWord().count
            rule.isOpen = false
        case "open":
            position += 4
        case "":
            break
        default:
            throw error("expected a weekday, 'PH', a time, or 'off' here, found '\(peekWord())'")
        }
        if position == start { throw error("expected a rule") }
        rule.text = String(characters[start..<position]).trimmingTrailingSpaces()
        return rule
    }

    private mutating func parseDates() throws(ScheduleError) -> [OpeningHours.DateSelector] {
        if peekWord() == "easter" {
            position += 6
            skipSpaces()
            var offset = 0
            if position < characters.count, characters[position] == "+" || characters[position] == "-" {
                let sign = characters[position] == "-" ? -1 : 1
                position += 1
                skipSpaces()
                offset = sign * (try parseNumber(maxDigits: 3, what: "a number of days"))
                skipSpaces()
                let unit = peekWord()
                guard unit == "day" || unit == "days" else { throw error("expected 'day' or 'days'") }
                position += unit.count
            }
            return [.easter(offset: offset)]
        }
        var selectors: [OpeningHours.DateSelector] = []
        while true {
            let (fromMonth, fromDay) = try parseMonthAndOptionalDay()
            var from = OpeningHours.MonthDay(month: fromMonth, day: fromDay ?? 1)
            var through = OpeningHours.MonthDay(
                month: fromMonth, day: fromDay ?? CivilDate.daysIn(month: fromMonth, year: 2000))
            skipSpaces()
            if position < characters.count, characters[position] == "-", !nextIsTime() {
                position += 1
                skipSpaces()
                if Self.months.contains(peekWord()) {
                    let (month, day) = try parseMonthAndOptionalDay()
                    through = .init(month: month, day: day ?? CivilDate.daysIn(month: month, year: 2000))
                } else {
                    let dayStart = position
                    let day = try parseNumber(maxDigits: 2, what: "a day of the month")
                    guard fromDay != nil else {
                        position = dayStart
                        throw error("a day range needs a start day ('Jul 06-25')")
                    }
                    guard day >= 1, day <= CivilDate.daysIn(month: fromMonth, year: 2000) else {
                        position = dayStart
                        throw error("day \(day) does not exist in \(Self.months[fromMonth - 1])")
                    }
                    through = .init(month: fromMonth, day: day)
                }
            }
            if fromDay == nil { from.day = 1 }
            selectors.append(.monthDays(from: from, through: through))
            skipSpaces()
            let save = position
            if position < characters.count, characters[position] == "," {
                position += 1
                skipSpaces()
                if Self.months.contains(peekWord()) { continue }
                position = save
            }
            return selectors
        }
    }

    private mutating func parseMonthAndOptionalDay() throws(ScheduleError) -> (Int, Int?) {
        let word = peekWord()
        guard let index = Self.months.firstIndex(of: word) else { throw error("expected a month (Jan … Dec)") }
        position += word.count
        let month = index + 1
        let save = position
        skipSpaces()
        guard position < characters.count, characters[position].isNumber, !nextIsTime() else {
            position = save
            return (month, nil)
        }
        let dayStart = position
        let day = try parseNumber(maxDigits: 2, what: "a day of the month")
        guard day >= 1, day <= CivilDate.daysIn(month: month, year: 2000) else {
            position = dayStart
            throw error("day \(day) does not exist in \(word)")
        }
        return (month, day)
    }

    private mutating func parseDays() throws(ScheduleError) -> [OpeningHours.DaySelector] {
        var selectors: [OpeningHours.DaySelector] = []
        while true {
            let word = peekWord()
            if word == "PH" {
                position += 2
                selectors.append(.publicHoliday)
            } else if let first = Self.weekdays.firstIndex(of: word) {
                position += 2
                var last = first
                if position < characters.count, characters[position] == "-" {
                    position += 1
                    guard let end = Self.weekdays.firstIndex(of: peekWord()) else {
                        throw error("expected a weekday (Mo Tu We Th Fr Sa Su) after '-'")
                    }
                    position += 2
                    last = end
                }
                selectors.append(.weekdays(first: Weekday(rawValue: first)!, last: Weekday(rawValue: last)!))
            } else if word == "SH" {
                throw error("school holidays ('SH') are not supported")
            } else {
                throw error("expected a weekday (Mo Tu We Th Fr Sa Su) or 'PH'")
            }
            if position < characters.count, characters[position] == "[" {
                throw error("nth-weekday selectors ('[1]') are not supported")
            }
            if position < characters.count, characters[position] == "," {
                position += 1
                skipSpaces()
                continue
            }
            return selectors
        }
    }

    private mutating func parseTimes() throws(ScheduleError) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        while true {
            let startOffset = position
            let from = try parseTime()
            guard position < characters.count, characters[position] == "-" else {
                throw error("expected '-' and an end time")
            }
            position += 1
            let endOffset = position
            let to = try parseTime()
            guard from < to else {
                position = endOffset
                throw error("the end time must be after the start (times past midnight are not supported)")
            }
            if let last = ranges.last, from < last.upperBound {
                position = startOffset
                throw error("time ranges must be in order and must not overlap")
            }
            ranges.append(from..<to)
            if position < characters.count, characters[position] == ",", nextIsTime(after: position + 1) {
                position += 1
                continue
            }
            return ranges
        }
    }

    private mutating func parseTime() throws(ScheduleError) -> Int {
        let start = position
        guard nextIsTime() else { throw error("expected a time HH:MM") }
        let hours = Int(String(characters[position..<position + 2]))!
        let minutes = Int(String(characters[position + 3..<position + 5]))!
        guard minutes < 60, hours < 24 || (hours == 24 && minutes == 0) else {
            position = start
            throw error("\(String(characters[start..<start + 5])) is not a time of day")
        }
        position += 5
        return hours * 60 + minutes
    }

    // MARK: Tokens

    private func nextIsTime(after index: Int? = nil) -> Bool {
        var i = index ?? position
        while i < characters.count, characters[i] == " " { i += 1 }
        guard i + 5 <= characters.count else { return false }
        let c = characters
        return c[i].isASCII && c[i].isNumber && c[i + 1].isASCII && c[i + 1].isNumber && c[i + 2] == ":"
            && c[i + 3].isASCII && c[i + 3].isNumber && c[i + 4].isASCII && c[i + 4].isNumber
    }

    private mutating func parseNumber(maxDigits: Int, what: String) throws(ScheduleError) -> Int {
        var digits = ""
        while position < characters.count, characters[position].isASCII, characters[position].isNumber {
            digits.append(characters[position])
            position += 1
        }
        guard !digits.isEmpty else { throw error("expected \(what)") }
        guard digits.count <= maxDigits, let value = Int(digits) else {
            position -= digits.count
            throw error("'\(digits)' is too long for \(what)")
        }
        return value
    }

    private func peekWord() -> String {
        var i = position
        var word = ""
        while i < characters.count, characters[i].isLetter {
            word.append(characters[i])
            i += 1
        }
        return word
    }

    private func lookingAt(_ text: String) -> Bool {
        let t = Array(text)
        return position + t.count <= characters.count && Array(characters[position..<position + t.count]) == t
    }

    private mutating func skipSpaces() {
        while position < characters.count, characters[position] == " " || characters[position] == "\t" {
            position += 1
        }
    }

    private func error(_ message: String) -> ScheduleError {
        .openingHours(expression: source, offset: min(position, characters.count), message: message)
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
