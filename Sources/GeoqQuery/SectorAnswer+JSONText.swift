import GeoqJSON

// The which-sector answer written without JSONEncoder: the service writes it for every
// `GET /v1/sector` and every line of a batch. Members in sorted key order; the tests compare the
// text with JSONEncoder's for real and made-up answers.

extension SectorAnswer: JSONWritable {
    public func write(to json: inout JSONText) { write(to: &json, line: nil, feature: nil, id: nil) }

    /// The answer as one line of a batch: its members and, in key order among them, where the
    /// point came from (its `line` or `feature` number, and its `id`), each left out when nil.
    public func write(to json: inout JSONText, line: Int?, feature: Int?, id: String?) {
        json.object { json in
            json.key("approximate")
            json.bool(approximate)
            json.member("approximation", approximation) { $0.string($1) }
            json.member("feature", feature) { $0.number($1) }
            json.member("id", id) { $0.string($1) }
            json.key("inside")
            json.array { json in for match in inside { match.write(to: &json) } }
            json.key("layer")
            json.string(layer)
            json.member("line", line) { $0.number($1) }
            json.member("nearest", nearest) { $1.write(to: &$0) }
            json.key("query")
            query.write(to: &json)
            json.member("swapHint", swapHint) { $1.write(to: &$0) }
            json.member("timeZone", timeZone) { $1.write(to: &$0) }
        }
    }
}

extension SectorAnswer.Position: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("latitude")
            json.number(latitude)
            json.key("longitude")
            json.number(longitude)
        }
    }
}

extension SectorAnswer.Match: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("distanceToEdgeMetres")
            json.number(distanceToEdgeMetres)
            json.key("id")
            json.string(id)
            json.key("location")
            json.string(location)
            json.member("name", name) { $0.string($1) }
            json.key("nearestEdgePoint")
            nearestEdgePoint.write(to: &json)
        }
    }
}

extension SectorAnswer.SwapHint: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("features")
            json.array { json in for feature in features { json.string(feature) } }
            json.key("latitude")
            json.number(latitude)
            json.key("layer")
            json.string(layer)
            json.key("longitude")
            json.number(longitude)
        }
    }
}

extension LocalTime: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.member("daylightSaving", daylightSaving) { $0.bool($1) }
            json.key("instant")
            json.string(instant)
            json.member("localTime", localTime) { $0.string($1) }
            json.member("problem", problem) { $0.string($1) }
            json.member("utcOffset", utcOffset) { $0.string($1) }
            json.member("utcOffsetSeconds", utcOffsetSeconds) { $0.number($1) }
            json.key("zone")
            json.string(zone)
        }
    }
}
