import GeoqJSON
import GeoqQuery

// The park answer written without JSONEncoder, the same bytes: the service writes it for every
// `GET /v1/park`, where encoding through JSONEncoder cost as much as computing the answer.
// Members in sorted key order, nil members left out (as the synthesized `Encodable` does); the
// tests compare the text with JSONEncoder's over thousands of real answers.

extension ParkAnswer: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("at")
            json.string(at)
            json.key("city")
            json.string(city)
            json.key("language")
            json.string(language)
            json.member("maxStay", maxStay) { $1.write(to: &$0) }
            json.key("messages")
            json.strings(messages)
            json.key("notes")
            json.strings(notes)
            json.key("provisionalCalendar")
            json.bool(provisionalCalendar)
            json.key("query")
            query.write(to: &json)
            json.key("regulation")
            regulation.write(to: &json)
            json.key("reminders")
            json.array { json in for reminder in reminders { reminder.write(to: &json) } }
            json.key("residents")
            json.strings(residents)
            json.key("sector")
            sector.write(to: &json)
            json.member("ticket", ticket) { $1.write(to: &$0) }
            json.member("whoMayPark", whoMayPark) { $0.string($1) }
            json.member("zone", zone) { $1.write(to: &$0) }
        }
    }
}

extension ParkAnswer.Sector: JSONWritable {
    public func write(to json: inout JSONText) { write(to: &json, approximation: nil) { $0.number($1) } }

    /// - Parameters:
    ///   - written: ``approximation`` written before (the layer's note, the same in every
    ///     answer of a language), copied instead of written again.
    ///   - number: writes ``distanceToEdgeMetres`` (or leaves its hole, for a template).
    func write(
        to json: inout JSONText, approximation written: JSONText.Fragment?,
        number: (inout JSONText, Double) -> Void
    ) {
        json.object { json in
            json.key("approximate")
            json.bool(approximate)
            if let written {
                json.key("approximation")
                json.value(written)
            } else {
                json.member("approximation", approximation) { $0.string($1) }
            }
            json.member("distanceToEdgeMetres", distanceToEdgeMetres, number)
            json.member("id", id) { $0.string($1) }
            json.key("layer")
            json.string(layer)
            json.member("name", name) { $0.string($1) }
            json.member("nearestID", nearestID) { $0.string($1) }
        }
    }
}

extension ParkAnswer.ZoneInfo: JSONWritable {
    public func write(to json: inout JSONText) { write(to: &json) { $0.number($1) } }

    /// - Parameter number: writes ``distanceMetres`` (or leaves its hole, for a template).
    func write(to json: inout JSONText, number: (inout JSONText, Double) -> Void) {
        json.object { json in
            json.member("distanceMetres", distanceMetres, number)
            json.key("id")
            json.string(id)
            json.key("name")
            json.string(name)
            json.key("source")
            json.string(source)
        }
    }
}

extension ParkAnswer.Regulation: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("message")
            json.string(message)
            json.key("reason")
            json.string(reason)
            json.key("regulated")
            json.bool(regulated)
            json.member("until", until) { $0.string($1) }
        }
    }
}

extension ParkAnswer.Ticket: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("amount")
            json.string(amount)
            json.key("countingFrom")
            json.string(countingFrom)
            json.key("end")
            json.string(end)
            json.member("freeUntil", freeUntil) { $0.string($1) }
            json.key("minutes")
            json.number(minutes)
            json.key("pauses")
            json.array { json in for pause in pauses { pause.write(to: &json) } }
            json.member("requestedMinutes", requestedMinutes) { $0.number($1) }
            json.key("start")
            json.string(start)
            json.key("validUntil")
            json.string(validUntil)
        }
    }
}

extension ParkAnswer.MaxStay: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("amount")
            json.string(amount)
            json.key("minutes")
            json.number(minutes)
        }
    }
}

extension TariffAnswer.Reminder: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("at")
            json.string(at)
            json.key("minutesBefore")
            json.number(minutesBefore)
        }
    }
}

extension PauseAnswer: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("days")
            json.array { json in for day in days { day.write(to: &json) } }
            json.key("from")
            json.string(from)
            json.key("message")
            json.string(message)
            json.key("outsideHours")
            json.bool(outsideHours)
            json.key("until")
            json.string(until)
        }
    }
}

extension PauseAnswer.Day: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("date")
            json.string(date)
            json.key("message")
            json.string(message)
            json.key("reasons")
            json.array { json in for reason in reasons { reason.write(to: &json) } }
        }
    }
}

extension PauseAnswer.Reason: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.member("calendar", calendar) { $0.string($1) }
            json.key("kind")
            json.string(kind)
            json.member("name", name) { $0.string($1) }
            json.member("rule", rule) { $0.string($1) }
            json.member("weekday", weekday) { $0.string($1) }
        }
    }
}

extension JSONText {
    /// An array of strings.
    fileprivate mutating func strings(_ values: [String]) {
        array { json in for value in values { json.string(value) } }
    }
}
