import GeoqJSON

// The overlay written without JSONEncoder, which was three quarters of a `GET /v1/ar` (every
// falla within reach is a label: about 70 KB). Members in sorted key order; `x` and `y` written
// as null when the target is behind the camera, as the Encodable form does. The tests compare
// the text with JSONEncoder's.

extension ARAnswer: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("camera")
            camera.write(to: &json)
            json.key("labels")
            json.array { json in for label in labels { label.write(to: &json) } }
            json.member("line", line) { $0.number($1) }
            json.key("visibleCount")
            json.number(visibleCount)
        }
    }
}

extension ARAnswer.Camera: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("altitude")
            json.number(altitude)
            json.key("heading")
            json.number(heading)
            json.key("height")
            json.number(height)
            json.key("hfov")
            json.number(hfov)
            json.key("latitude")
            json.number(latitude)
            json.key("longitude")
            json.number(longitude)
            json.key("pitch")
            json.number(pitch)
            json.member("readHeading", readHeading) { $0.number($1) }
            json.key("roll")
            json.number(roll)
            json.key("vfov")
            json.number(vfov)
            json.key("width")
            json.number(width)
        }
    }
}

extension ARLabel: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("bearing")
            json.number(bearing)
            json.key("distance")
            json.number(distance)
            json.key("elevation")
            json.number(elevation)
            json.key("height")
            json.number(height)
            json.key("id")
            json.string(id)
            json.key("name")
            json.string(name)
            json.key("relativeBearing")
            json.number(relativeBearing)
            json.key("scale")
            json.number(scale)
            json.key("stackLevel")
            json.number(stackLevel)
            json.key("visible")
            json.bool(visible)
            json.key("width")
            json.number(width)
            json.key("x")
            if let x { json.number(x) } else { json.null() }
            json.key("y")
            if let y { json.number(y) } else { json.null() }
        }
    }
}
