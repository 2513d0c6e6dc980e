import Foundation
import GeoqCore
import GeoqJSON
import GeoqQuery
import GeoqSchedule

extension OGCFeatures {
    /// The JSON (and GeoJSON) documents of the face, written straight into bytes.
    enum JSONDocuments {
        static func landing(_ page: Page) -> [UInt8] {
            var json = JSONText(reservingCapacity: 2048)
            json.object { json in
                json.key("title")
                json.string("geoq")
                json.key("description")
                json.string(Words.description[page.language])
                links(
                    &json,
                    page.selfLinks() + [
                        OGCLink(
                            href: page.href(basePath + "/api"), rel: "service-desc", type: OGCFeatures.openAPI,
                            title: "The API definition (OpenAPI 3.1)"),
                        OGCLink(
                            href: page.href(basePath + "/api", [("f", "html")]), rel: "service-doc", type: "text/html",
                            title: "The API documentation"),
                        OGCLink(
                            href: page.href(basePath + "/conformance"), rel: "conformance", type: OGCFeatures.json,
                            title: "Conformance classes implemented"),
                        OGCLink(
                            href: page.href(basePath + "/collections"), rel: "data", type: OGCFeatures.json,
                            title: "The collections"),
                    ])
            }
            return json.bytes
        }

        static func conformance(_ page: Page) -> [UInt8] {
            var json = JSONText(reservingCapacity: 512)
            json.object { json in
                json.key("conformsTo")
                json.array { json in for uri in OGCFeatures.conformance { json.string(uri) } }
                links(&json, page.selfLinks())
            }
            return json.bytes
        }

        static func collections(_ collections: [OGCCollection], _ page: Page) -> [UInt8] {
            var json = JSONText(reservingCapacity: 4096)
            json.object { json in
                links(&json, page.selfLinks())
                json.key("collections")
                json.array { json in for collection in collections { write(&json, collection, page) } }
            }
            return json.bytes
        }

        static func collection(_ collection: OGCCollection, _ page: Page) -> [UInt8] {
            var json = JSONText(reservingCapacity: 1024)
            write(&json, collection, page, own: true)
            return json.bytes
        }

        static func items(_ selection: ItemsPage, _ page: Page) -> [UInt8] {
            var json = JSONText(reservingCapacity: 1 << 16)
            let collection = selection.collection
            json.object { json in
                json.key("type")
                json.string("FeatureCollection")
                approximation(&json, collection, page.language)
                json.key("numberMatched")
                json.number(selection.matched)
                json.key("numberReturned")
                json.number(selection.shown.count)
                json.key("timeStamp")
                json.string(timestamp(page.request.now))
                var links = page.selfLinks(json: OGCFeatures.geoJSON)
                let paging = selection.pagingQueries(page.request)
                if let next = paging.next {
                    links.append(
                        OGCLink(
                            href: page.href(page.path, next + [("f", "json")]), rel: "next", type: OGCFeatures.geoJSON,
                            title: "The next page"))
                }
                if let prev = paging.prev {
                    links.append(
                        OGCLink(
                            href: page.href(page.path, prev + [("f", "json")]), rel: "prev", type: OGCFeatures.geoJSON,
                            title: "The previous page"))
                }
                links.append(
                    OGCLink(
                        href: page.href(collectionPath(collection.id)), rel: "collection", type: OGCFeatures.json,
                        title: collection.title(in: page.language)))
                Self.links(&json, links)
                json.key("features")
                json.array { json in
                    for index in selection.shown {
                        feature(
                            &json, collection.features[index], properties: selection.query.properties,
                            skipGeometry: selection.query.skipGeometry, crs: selection.query.crs,
                            systems: selection.systems)
                    }
                }
            }
            return json.bytes
        }

        static func item(
            _ collection: OGCCollection, _ index: Int, _ page: Page, crs: String?, systems: any OGCCoordinateSystems
        ) -> [UInt8] {
            var json = JSONText(reservingCapacity: 4096)
            feature(
                &json, collection.features[index], properties: nil, skipGeometry: false, crs: crs, systems: systems
            ) { json in
                approximation(&json, collection, page.language)
                links(
                    &json,
                    page.selfLinks(json: OGCFeatures.geoJSON) + [
                        OGCLink(
                            href: page.href(collectionPath(collection.id)), rel: "collection", type: OGCFeatures.json,
                            title: collection.title(in: page.language))
                    ])
            }
            return json.bytes
        }

        // MARK: - Parts

        /// A collection as `/collections` lists it and `/collections/{id}` answers it.
        static func write(_ json: inout JSONText, _ collection: OGCCollection, _ page: Page, own: Bool = false) {
            let path = collectionPath(collection.id)
            json.object { json in
                json.key("id")
                json.string(collection.id)
                json.key("title")
                json.string(collection.title(in: page.language))
                json.key("description")
                json.string(Words.describe(collection, page.language))
                json.key("itemType")
                json.string("feature")
                json.key("crs")
                json.array { json in
                    json.string(crs84)
                    for uri in page.systems.offered { json.string(uri) }
                }
                json.key("storageCrs")
                json.string(crs84)
                let extent = collection.extent
                if !extent.isEmpty {
                    json.key("extent")
                    json.object { json in
                        json.key("spatial")
                        json.object { json in
                            json.key("bbox")
                            json.array { json in
                                json.array { json in
                                    for value in [extent.minX, extent.minY, extent.maxX, extent.maxY] {
                                        json.number(value)
                                    }
                                }
                            }
                            json.key("crs")
                            json.string(crs84)
                        }
                        if let interval = collection.interval {
                            json.key("temporal")
                            json.object { json in
                                json.key("interval")
                                json.array { json in
                                    json.array { json in
                                        json.string(timestamp(interval.first))
                                        json.string(timestamp(interval.last))
                                    }
                                }
                                json.key("trs")
                                json.string("http://www.opengis.net/def/uom/ISO-8601/0/Gregorian")
                            }
                        }
                    }
                }
                var links: [OGCLink] =
                    own
                    ? page.selfLinks()
                    : [OGCLink(href: page.href(path), rel: "self", type: OGCFeatures.json, title: "This collection")]
                links += [
                    OGCLink(
                        href: page.href(path + "/items", [("f", "json")]), rel: "items", type: OGCFeatures.geoJSON,
                        title: "The features as GeoJSON"),
                    OGCLink(
                        href: page.href(path + "/items", [("f", "html")]), rel: "items", type: "text/html",
                        title: "The features as HTML"),
                    OGCLink(
                        href: page.href(path + "/tiles"), rel: "http://www.opengis.net/def/rel/ogc/1.0/tilesets-vector",
                        type: OGCFeatures.json, title: "The vector tilesets"),
                ]
                Self.links(&json, links)
            }
        }

        /// A feature: `id`, geometry (null with `skipGeometry`, or for an incident without a
        /// place; in `crs` when given), the properties asked (all by default, and `name`);
        /// `extra` adds members.
        static func feature(
            _ json: inout JSONText, _ feature: Feature, properties: [String]?, skipGeometry: Bool, crs: String? = nil,
            systems: any OGCCoordinateSystems = CRS84Only(), extra: (inout JSONText) -> Void = { _ in }
        ) {
            json.object { json in
                json.key("type")
                json.string("Feature")
                json.key("id")
                json.string(feature.id)
                json.key("geometry")
                if skipGeometry || feature.geometry.isEmpty {
                    json.null()
                } else if let crs {
                    // A position with no image there (beyond the projection's domain): null.
                    if let projected = systems.project(feature.geometry, to: crs) {
                        json.geoJSONGeometry(projected)
                    } else {
                        json.null()
                    }
                } else {
                    json.geoJSONGeometry(feature.geometry)
                }
                json.key("properties")
                json.object { json in
                    let names =
                        properties
                        ?? (feature.properties.keys.sorted() + (feature.properties["name"] == nil ? ["name"] : []))
                    for name in names {
                        json.key(name)
                        value(&json, OGCItemsQuery.property(name, of: feature))
                    }
                }
                extra(&json)
            }
        }

        static func value(_ json: inout JSONText, _ value: PropertyValue) {
            switch value {
            case .string(let text): json.string(text)
            case .number(let number): json.number(number)
            case .bool(let flag): json.bool(flag)
            case .null: json.null()
            }
        }

        /// An approximate layer says so in every answer (GeoJSON's foreign members).
        static func approximation(_ json: inout JSONText, _ collection: OGCCollection, _ language: Language) {
            guard let note = collection.approximation else { return }
            json.key("approximate")
            json.bool(true)
            json.key("approximation")
            json.string(note[language])
        }

        static func links(_ json: inout JSONText, _ links: [OGCLink]) {
            json.key("links")
            json.array { json in
                for link in links {
                    json.object { json in
                        json.key("href")
                        json.string(link.href)
                        json.key("rel")
                        json.string(link.rel)
                        json.key("type")
                        json.string(link.type)
                        json.member("title", link.title) { $0.string($1) }
                    }
                }
            }
        }

        /// RFC 3339, UTC, to the second.
        static func timestamp(_ date: Date) -> String {
            date.ISO8601Format()
        }
    }
}
