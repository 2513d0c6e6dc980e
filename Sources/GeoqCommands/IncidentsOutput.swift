import Foundation
import GeoqCore
import GeoqIncidents
import GeoqLayers
import GeoqQuery

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
                var head = i.title
                if let type = i.type {
                    head = "[\(type.rawValue) \(type.spanishName)] " + head
                } else if !i.categories.isEmpty {
                    head = "[\(i.categories.joined(separator: ", "))] " + head
                }
                if let d = hit.distanceMetres { head += " — \(AnswerRenderer.metres(d))" }
                if let published = i.published { head += " — \(IncidentDates.display(published))" }
                lines.append(head)
                lines += i.description.split(separator: "\n").map { "    \($0)" }
                if let link = i.link { lines.append("    \(link)") }
                // Categories other than the type's own name (already in the head) are worth a line.
                if let type = i.type, i.categories != [type.spanishName], !i.categories.isEmpty {
                    lines.append("    categories: \(i.categories.joined(separator: ", "))")
                }
                lines.append("    source: \(i.source)")
            }
            return lines.joined(separator: "\n") + "\n"
        case .json:
            return AnswerRenderer.encoded(IncidentsAnswer(hits, held: held, refreshedAt: refreshedAt)) + "\n"
        case .geojson:
            return AnswerRenderer.serialise(IncidentsAnswer.geoJSON(hits), pretty: false) + "\n"
        }
    }

    /// "1 item", "3 items".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    static func render(_ r: IncidentStore.Report, feed: String, format: OutputFormat) -> String {
        switch format {
        case .text:
            let type = r.feedType.map { " (type \($0.rawValue), \($0.spanishName))" } ?? ""
            var text =
                "Refreshed source \(r.source)\(type) from \(feed): \(count(r.itemsRead, "item")) "
                + "(\(r.added) new, \(r.updated) updated, \(r.ended) ended); \(count(r.held, "incident")) held."
            if r.itemsRead == 0 { text += " The feed is empty: this source has no incidents now." }
            for problem in r.withoutLocation { text += "\n  without location: \(problem)" }
            return text + "\n"
        case .json, .geojson:
            var report: [String: Any] = [
                "feed": feed, "source": r.source, "items": r.itemsRead, "added": r.added, "updated": r.updated,
                "ended": r.ended, "held": r.held, "withoutLocation": r.withoutLocation,
                "refreshedAt": iso(r.refreshedAt),
            ]
            if let type = r.feedType { report["type"] = type.rawValue }
            return AnswerRenderer.serialise(report, pretty: true) + "\n"
        }
    }
}
