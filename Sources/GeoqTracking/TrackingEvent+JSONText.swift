import GeoqJSON

// Events written without JSONEncoder: every event is written once for the store (its webhook's
// body) and once in the answer to its batch, and a fleet's batches make thousands a second.
// Members in sorted key order; the tests compare the text with JSONEncoder's (sorted keys,
// slashes unescaped) for every kind of event of real traces.

extension TrackingEvent: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("device")
            json.string(device)
            json.key("event")
            json.string(event.rawValue)
            json.key("featureID")
            json.string(featureID)
            json.member("featureName", featureName) { $0.string($1) }
            json.key("layer")
            json.string(layer)
            json.member("park", park) { $1.write(to: &$0) }
            json.key("position")
            position.write(to: &json)
            json.member("reason", reason) { $0.string($1) }
            json.member("reminders", reminders) { json, reminders in
                json.array { json in for reminder in reminders { json.string(reminder) } }
            }
            json.key("sequence")
            json.number(sequence)
            json.key("time")
            json.string(time)
            json.key("visit")
            json.string(visit)
        }
    }
}
