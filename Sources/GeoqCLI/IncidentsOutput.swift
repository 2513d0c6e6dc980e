import Foundation
import GeoqCore
import GeoqIncidents
import GeoqLayers

/// How incident answers are printed (text, JSON, GeoJSON) and how their errors are reported.
enum IncidentsOutput {
    static func fail(_ message: String, code: String, format: OutputFormat) {
        var stderr = StandardError()
        stderr.write(
            format == .text
                ? "geoq: error: \(message)\n" : AnswerRenderer.errorJSON(code: code, message: message) + "\n")
    }

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: date)
    }

    static func render(_ hits: [IncidentQuery.Hit], held: Int, refreshedAt: Date?, format: OutputFormat) -> String {
        let age = IncidentsAnswer.status(held: held, refreshedAt: refreshedAt)
        switch format {
        case .text:
            var lines = [age + "."]
            if hits.isEmpty { lines.append(held == 0 ? "No incidents." : "No incidents match.") }
            for hit in hits {
                let i = hit.incident
                var head = "[\(i.type.rawValue) \(i.type.spanishName)] \(i.title)"
                if let d = hit.distanceMetres { head += " — \(AnswerRenderer.metres(d))" }
                if let published = i.published { head += " — \(IncidentDates.display(published))" }
                lines.append(head)
                lines += i.description.split(separator: "\n").map { "    \($0)" }
                if let link = i.link { lines.append("    \(link)") }
            }
            return lines.joined(separator: "\n") + "\n"
        case .json:
            return AnswerRenderer.encoded(IncidentsAnswer(hits, held: held, refreshedAt: refreshedAt)) + "\n"
        case .geojson:
            let features: [[String: Any]] = hits.compactMap { (hit) -> [String: Any]? in
                guard let geometry = hit.incident.geometry else { return nil }
                return [
                    "type": "Feature", "id": hit.incident.id, "geometry": geoJSON(geometry),
                    "properties": properties(hit),
                ]
            }
            return AnswerRenderer.serialise(["type": "FeatureCollection", "features": features], pretty: false) + "\n"
        }
    }

    /// The JSON answer's item for `hit`, as a GeoJSON feature's properties.
    static func properties(_ hit: IncidentQuery.Hit) -> [String: Any] {
        let data = Data(AnswerRenderer.encoded(IncidentsAnswer.Item(hit), pretty: false).utf8)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    static func geoJSON(_ geometry: GeoqCore.Geometry) -> [String: Any] {
        func pos(_ p: GeoqCore.Point) -> [Double] { [p.x, p.y] }
        switch geometry {
        case .point(let p): return ["type": "Point", "coordinates": pos(p)]
        case .multiPoint(let ps): return ["type": "MultiPoint", "coordinates": ps.map(pos)]
        case .lineString(let ps): return ["type": "LineString", "coordinates": ps.map(pos)]
        case .multiLineString(let ls): return ["type": "MultiLineString", "coordinates": ls.map { $0.map(pos) }]
        case .polygon(let p): return ["type": "Polygon", "coordinates": p.rings.map { $0.points.map(pos) }]
        case .multiPolygon(let mp):
            return ["type": "MultiPolygon", "coordinates": mp.polygons.map { $0.rings.map { $0.points.map(pos) } }]
        }
    }

    static func render(_ r: IncidentStore.Report, feed: String, format: OutputFormat) -> String {
        switch format {
        case .text:
            var text =
                "Refreshed type \(r.feedType.rawValue) (\(r.feedType.spanishName)) from \(feed): \(r.itemsRead) items "
                + "(\(r.added) new, \(r.updated) updated, \(r.ended) ended); \(r.held) incidents held."
            if r.itemsRead == 0 { text += " The feed is empty: no incidents of this type." }
            for problem in r.withoutLocation { text += "\n  without location: \(problem)" }
            return text + "\n"
        case .json, .geojson:
            return AnswerRenderer.serialise(
                [
                    "feed": feed, "type": r.feedType.rawValue, "items": r.itemsRead, "added": r.added,
                    "updated": r.updated,
                    "ended": r.ended, "held": r.held, "withoutLocation": r.withoutLocation,
                    "refreshedAt": iso(r.refreshedAt),
                ], pretty: true) + "\n"
        }
    }
}
