import Foundation
import GeoqCore
import GeoqFormats
import GeoqIncidents
import GeoqLayers
import GeoqQuery
import GeoqTestSupport

/// Incident feeds at scale: a generated Zaragoza-style RSS feed of 10,000 items (HTML
/// descriptions, GeoRSS points within 5 km of the city centre) parsed, refreshed into a fresh
/// store, refreshed again (every item an update), and queried near a point; plus the parser's
/// peak memory on 10,000 and 100,000 items, read as a stream with nothing kept.
enum IncidentBenchmark {
    /// - Parameters:
    ///   - items: items of the feed that is parsed, refreshed and queried.
    ///   - largeItems: items of the larger feed whose streaming parse is measured for memory.
    static func run(runs: Int, progress: Progress, items: Int = 10_000, largeItems: Int = 100_000) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "geoq-bench-incidents-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let feed10k = directory.appendingPathComponent("feed-\(items).xml")
        let feed100k = directory.appendingPathComponent("feed-\(largeItems).xml")
        try writeFeed(items: items, to: feed10k)
        try writeFeed(items: largeItems, to: feed100k)
        // Peak memory of a streaming parse that keeps nothing, measured before anything large is
        // held: it must not grow with the file.
        let before = peakKilobytes()
        _ = try GeoRSSFeedReader.read(file: feed10k) { _ in }
        let after10k = peakKilobytes()
        _ = try GeoRSSFeedReader.read(file: feed100k) { _ in }
        let after100k = peakKilobytes()
        let data = try Data(contentsOf: feed10k)

        var parse: [Double] = [], first: [Double] = [], again: [Double] = [], near: [Double] = []
        var hitCount = 0
        for run in 1...runs {
            progress.note("incidents: run \(run)/\(runs)")
            var count = 0
            parse.append(
                try GeoqBench.timeThrowing(1) {
                    _ = try GeoRSSFeedReader.read(data: data, source: "bench") { _ in count += 1 }
                })
            let store = IncidentStore(storeFile: directory.appendingPathComponent("store-\(run).gpkg"))
            first.append(
                try GeoqBench.timeThrowing(1) {
                    _ = try store.refresh(data: data, feed: "bench", type: .trafficCut)
                })
            again.append(
                try GeoqBench.timeThrowing(1) {
                    _ = try store.refresh(data: data, feed: "bench", type: .trafficCut)
                })
            let centre = Point(latitude: 41.6488, longitude: -0.8891)
            near.append(
                try GeoqBench.timeThrowing(1) {
                    let held = try store.held().incidents
                    hitCount =
                        IncidentQuery(near: centre, withinMetres: 500).run(
                            IncidentSet(held), geodesic: KarneyGeodesic.wgs84
                        ).count
                })
        }
        let ms = { (ns: Double) in String(format: "%.0f ms", ns / 1e6) }
        let p = Stats(parse), f = Stats(first), a = Stats(again), n = Stats(near)
        print("")
        print("| incident feed, \(items) items (\(data.count / 1024) KiB) | min | mean |")
        print("|---|---:|---:|")
        print("| parse (RSS + GeoRSS + dates) | \(ms(p.min)) | \(ms(p.mean)) |")
        print(
            "| refresh into an empty store (parse, clean HTML, merge, one transaction) | \(ms(f.min)) | \(ms(f.mean)) |"
        )
        print("| refresh again (\(items) updates by id) | \(ms(a.min)) | \(ms(a.mean)) |")
        print(
            "| list within 500 m of a point (read the layer, geodesic distances; \(hitCount) hits) | \(ms(n.min)) | \(ms(n.mean)) |"
        )
        print("")
        print(
            "Streaming parse with nothing kept: peak resident memory \(before / 1024) MiB before, \(after10k / 1024) MiB "
                + "after \(items) items, \(after100k / 1024) MiB after \(largeItems) items (file \(try Data(contentsOf: feed100k).count / 1_048_576) MiB)."
        )
    }

    static func peakKilobytes() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss
    }

    /// Writes a Zaragoza-style feed (SPEC §3) of `items` generated items (seeded), in chunks.
    static func writeFeed(items: Int, to url: URL) throws {
        // A file that could not be created makes the next line throw, naming it.
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        var rng = SeededRandom(seed: 6)
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:georss="http://www.georss.org/georss"><channel><title>bench</title>

            """
        for i in 0..<items {
            let lat = 41.6488 + rng.uniform(-0.045...0.045), lon = -0.8891 + rng.uniform(-0.06...0.06)
            text += """
                <item><title>Calle \(i)</title><link>https://www.zaragoza.es/incidencia/\(i)</link><guid>inc-\(i)</guid>
                <pubDate>Sun, 22 Nov 2026 08:\(10 + i % 50):00 +0100</pubDate>
                <description>&lt;p&gt;Corte por obras n&amp;uacute;mero \(i).&lt;/p&gt;&lt;p&gt;&lt;strong&gt;Tramo comprendido&lt;/strong&gt; entre A y B&lt;/p&gt;&lt;p&gt;Desv&amp;iacute;o: por C&lt;/p&gt;</description>
                <georss:point>\(lat) \(lon)</georss:point></item>

                """
            if i % 1000 == 999 {
                try file.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
        text += "</channel></rss>\n"
        try file.write(contentsOf: Data(text.utf8))
    }
}
