import GeoqJSON

// The nearest and services answers written without JSONEncoder, which was most of the cost of
// `GET /v1/nearest` and `/v1/services` (a 10-hit answer: about 130 µs of 140). Members in
// sorted key order; the tests compare the text with JSONEncoder's for real and made-up answers.

extension NearestAnswer: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("approximate")
            json.bool(approximate)
            json.member("approximation", approximation) { $0.string($1) }
            json.key("hits")
            json.array { json in for hit in hits { hit.write(to: &json) } }
            json.key("layer")
            json.string(layer)
            json.key("order")
            json.string(order)
            json.key("query")
            query.write(to: &json)
        }
    }
}

extension NearestAnswer.Hit: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("bearingDegrees")
            json.number(bearingDegrees)
            json.member("category", category) { $0.string($1) }
            json.member("categoryCode", categoryCode) { $0.string($1) }
            json.key("distanceMetres")
            json.number(distanceMetres)
            json.key("geoURI")
            json.string(geoURI)
            json.key("id")
            json.string(id)
            json.member("links", links) { json, links in
                json.object { json in
                    for key in links.keys.sorted() {
                        json.key(key)
                        links[key]!.write(to: &json)
                    }
                }
            }
            json.member("name", name) { $0.string($1) }
            json.member("pin", pin) { $0.string($1) }
            json.key("position")
            position.write(to: &json)
        }
    }
}

extension NearestAnswer.Linked: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("geometryType")
            json.string(geometryType)
            json.key("id")
            json.string(id)
            json.key("layer")
            json.string(layer)
            json.member("name", name) { $0.string($1) }
        }
    }
}

extension ServicesAnswer: JSONWritable {
    public func write(to json: inout JSONText) {
        json.object { json in
            json.key("groups")
            json.array { json in
                for group in groups {
                    json.object { json in
                        json.key("hits")
                        json.array { json in for hit in group.hits { hit.write(to: &json) } }
                        json.key("layer")
                        json.string(group.layer)
                        json.key("type")
                        json.string(group.type)
                    }
                }
            }
            json.key("query")
            query.write(to: &json)
        }
    }
}
