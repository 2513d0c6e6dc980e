import GeoqCore
import GeoqQuery
import GeoqSchedule

extension OGCFeatures {
    /// The HTML views of the face: plain pages a person can browse (links, tables of
    /// properties), each linking to its JSON. Every text from the data is escaped.
    enum HTMLDocuments {
        static func landing(_ page: Page) -> String {
            document(
                "geoq", page,
                body: """
                    <p>\(escape(Words.description[page.language]))</p>
                    <ul>
                    <li><a href="\(escape(page.href(basePath + "/collections", [("f", "html")])))">\(escape(Words.collections[page.language]))</a></li>
                    <li><a href="\(escape(page.href(basePath + "/conformance", [("f", "html")])))">\(escape(Words.conformance[page.language]))</a></li>
                    <li><a href="\(escape(page.href(basePath + "/api")))">\(escape(Words.api[page.language]))</a> (OpenAPI 3.1)</li>
                    </ul>
                    """)
        }

        static func api(_ api: OpenAPIDocument, _ page: Page) -> String {
            var rows = ""
            for path in api.paths.keys.sorted() {
                let item = api.paths[path]!
                for (method, operation) in [("GET", item.get), ("POST", item.post), ("DELETE", item.delete)] {
                    guard let operation else { continue }
                    let parameters = operation.parameters.map { $0.name }.joined(separator: ", ")
                    rows += "<tr><td>\(method)</td><td>\(escape(path))</td><td>\(escape(operation.summary))</td>"
                    rows += "<td>\(escape(parameters))</td></tr>\n"
                }
            }
            return document(
                Words.api[page.language], page,
                body:
                    "<table>\n<tr><th>method</th><th>path</th><th>summary</th><th>parameters</th></tr>\n\(rows)</table>"
            )
        }

        static func conformance(_ page: Page) -> String {
            document(
                Words.conformance[page.language], page,
                body: "<ul>\n"
                    + OGCFeatures.conformance.map { "<li>\(escape($0))</li>" }.joined(separator: "\n") + "\n</ul>")
        }

        static func collections(_ collections: [OGCCollection], _ page: Page) -> String {
            var rows = ""
            for collection in collections {
                let path = collectionPath(collection.id)
                rows += """
                    <tr><td><a href="\(escape(page.href(path, [("f", "html")])))">\(escape(collection.id))</a></td>\
                    <td>\(escape(collection.title(in: page.language)))</td>\
                    <td>\(escape(Words.describe(collection, page.language)))</td></tr>

                    """
            }
            return document(
                Words.collections[page.language], page,
                body: "<table>\n<tr><th>id</th><th>title</th><th>description</th></tr>\n\(rows)</table>")
        }

        static func collection(_ collection: OGCCollection, _ page: Page) -> String {
            let path = collectionPath(collection.id)
            let extent = collection.extent
            var body = "<p>\(escape(Words.describe(collection, page.language)))</p>\n"
            if !extent.isEmpty {
                body += "<p>bbox: \(extent.minX), \(extent.minY), \(extent.maxX), \(extent.maxY) (CRS84)</p>\n"
            }
            body += """
                <p><a href="\(escape(page.href(path + "/items", [("f", "html")])))">\(escape(Words.features[page.language]))</a></p>
                <table><tr><th>property</th><th>type</th><th>example</th></tr>
                \(collection.queryables.map { "<tr><td>\(escape($0.name))</td><td>\(escape($0.type))</td><td>\(escape($0.example ?? ""))</td></tr>" }.joined(separator: "\n"))
                </table>
                """
            return document(collection.title(in: page.language), page, body: body)
        }

        static func items(_ selection: ItemsPage, _ page: Page) -> String {
            let collection = selection.collection
            let names =
                selection.query.properties ?? collection.queryables.map(\.name)
            var body = "<p>\(selection.shown.count) / \(selection.matched)</p>\n"
            let paging = selection.pagingQueries(page.request)
            if let prev = paging.prev {
                body += "<a rel=\"prev\" href=\"\(escape(page.href(page.path, prev + [("f", "html")])))\">&larr;</a>\n"
            }
            if let next = paging.next {
                body += "<a rel=\"next\" href=\"\(escape(page.href(page.path, next + [("f", "html")])))\">&rarr;</a>\n"
            }
            body += "<table>\n<tr><th>id</th>" + names.map { "<th>\(escape($0))</th>" }.joined() + "</tr>\n"
            for index in selection.shown {
                let feature = collection.features[index]
                let link = page.href(
                    collectionPath(collection.id) + "/items/" + OGCLink.encoded(feature.id), [("f", "html")])
                body += "<tr><td><a href=\"\(escape(link))\">\(escape(feature.id))</a></td>"
                body += names.map { "<td>\(escape(text(OGCItemsQuery.property($0, of: feature))))</td>" }.joined()
                body += "</tr>\n"
            }
            body += "</table>"
            return document(collection.title(in: page.language), page, body: body, approximation: collection)
        }

        static func item(_ collection: OGCCollection, _ index: Int, _ page: Page) -> String {
            let feature = collection.features[index]
            let names = feature.properties.keys.sorted() + (feature.properties["name"] == nil ? ["name"] : [])
            let rows = names.map {
                "<tr><th>\(escape($0))</th><td>\(escape(text(OGCItemsQuery.property($0, of: feature))))</td></tr>"
            }
            let box = feature.geometry.boundingBox
            let geometry =
                feature.geometry.isEmpty
                ? "" : "<p>\(feature.geometry.typeName), bbox \(box.minX), \(box.minY), \(box.maxX), \(box.maxY)</p>\n"
            return document(
                feature.name ?? feature.id, page,
                body: geometry + "<table>\n" + rows.joined(separator: "\n") + "\n</table>", approximation: collection)
        }

        /// A page: title, the links to this document in JSON, the body.
        static func document(_ title: String, _ page: Page, body: String, approximation: OGCCollection? = nil) -> String
        {
            let json = page.selfLinks().first { $0.rel == "alternate" }?.href ?? ""
            let note =
                approximation?.approximation.map { "<p><strong>\(escape($0[page.language]))</strong></p>\n" } ?? ""
            return """
                <!doctype html>
                <html lang="\(page.language.rawValue)"><head><meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>\(escape(title)) · geoq</title>
                <style>body{font-family:system-ui,sans-serif;margin:1.5rem;max-width:70rem}table{border-collapse:collapse}\
                td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}</style>
                </head><body>
                <nav><a href="\(escape(page.href(basePath, [("f", "html")])))">geoq</a> · \
                <a href="\(escape(page.href(basePath + "/collections", [("f", "html")])))">\(escape(Words.collections[page.language]))</a> · \
                <a href="\(escape(json))">JSON</a></nav>
                <h1>\(escape(title))</h1>
                \(note)\(body)
                </body></html>

                """
        }

        static func text(_ value: PropertyValue) -> String {
            switch value {
            case .string(let text): text
            case .number: value.text ?? ""
            case .bool(let flag): flag ? "true" : "false"
            case .null: ""
            }
        }

        /// `text` safe inside an element or a quoted attribute.
        static func escape(_ text: String) -> String {
            var out = ""
            out.reserveCapacity(text.utf8.count)
            for character in text.unicodeScalars {
                switch character {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "'": out += "&#39;"
                default: out.unicodeScalars.append(character)
                }
            }
            return out
        }
    }
}
