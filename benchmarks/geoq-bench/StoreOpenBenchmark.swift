import Foundation
import GeoqCore
import GeoqLayers
import GeoqQuery
import GeoqStore

/// Store ready: a GeoPackage opened and every layer loaded with its index usable (which-sector,
/// nearest and services can answer on every layer), with the index each polygon layer has
/// stored beside it, and, the peer in the same run, with those indexes removed so that each
/// is built at load (as every load did before indexes were stored).
///
/// What "ready" loads, in both: every feature's id, name, attributes and geometry (decoded
/// from the GeoPackage's WKB), each polygon layer's packed index (read, checksummed and checked,
/// or built), each point layer's nearest-N index (built: point layers store none).
extension StoreBenchmark {
    static func openHalf(locations: DataLocations, runs: Int, progress: Progress) throws {
        let catalog = try locations.loadCatalog()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-bench-open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        var stores: [(label: String, file: URL, extra: [String])] = []
        let catalogStore = dir.appendingPathComponent("catalog.gpkg")
        progress.note("importing the catalog for the open benchmark")
        // The layers `geoq import --all` imports: optional ones (the time zones) left out.
        for spec in catalog.listedLayers(environment: [:]) {
            _ = try LayerImporter().importLayer(spec, from: catalog.sourceURL(of: spec), into: catalogStore)
        }
        stores.append(("catalog (`geoq import --all`)", catalogStore, []))

        // The world's time zones as an extra layer (8.19 million vertices): skipped in the smoke
        // run (one run), whose debug build would take minutes to import it.
        let root = locations.catalogFile.deletingLastPathComponent().deletingLastPathComponent()
        let zones = root.appendingPathComponent("data/external/timezones/timezones.geojson")
        if runs > 1 && FileManager.default.fileExists(atPath: zones.path) {
            let withZones = dir.appendingPathComponent("catalog-timezones.gpkg")
            try FileManager.default.copyItem(at: catalogStore, to: withZones)
            progress.note("importing the time zones for the open benchmark")
            let spec = LayerSpec(
                name: "timezones", title: "World time zones", source: zones.path, idField: "tzid", nameField: "tzid")
            _ = try LayerImporter(invalidPolygons: .keep).importLayer(spec, from: zones, into: withZones)
            stores.append(("catalog + time zones", withZones, ["timezones"]))
        }

        print("")
        print(
            "| store ready (open, every layer loaded and indexed) | layers | features | vertices "
                + "| stored index (min / mean) | built at load, peer (min / mean) | peer / stored |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for (label, file, extra) in stores {
            let peer = dir.appendingPathComponent("peer.gpkg")
            try? FileManager.default.removeItem(at: peer)
            try FileManager.default.copyItem(at: file, to: peer)
            let library = try LayerLibrary(locations: locations, storeFile: peer)
            let package = try GeoPackage.open(at: peer.path, create: false)
            for name in library.polygonLayerNames { try package.deleteLayerIndex(of: name) }

            var stored: [Double] = [], built: [Double] = []
            var shape = (layers: 0, features: 0, vertices: 0)
            for run in 1...runs {
                progress.note("\(label): store ready, run \(run)/\(runs)")
                let a = try ready(locations: locations, store: file, expect: .stored)
                let b = try ready(locations: locations, store: peer, expect: .rebuilt)
                stored.append(a.milliseconds)
                built.append(b.milliseconds)
                shape = (a.layers, a.features, a.vertices)
            }
            let s = Stats(stored), b = Stats(built)
            print(
                "| \(label) | \(shape.layers) | \(shape.features) | \(shape.vertices) | "
                    + String(
                        format: "**%.1f ms** / %.1f ms | %.1f ms / %.1f ms | %.1f× |", s.min, s.mean, b.min, b.mean,
                        b.min / s.min))
            try fresh(label: label, store: file, peer: peer, runs: runs, progress: progress)
            for name in extra { try breakdown(of: name, in: file, peer: peer, runs: runs) }
        }
        print("")
        print(
            "Over \(runs) runs, each opening the store anew; \"ready\" includes decoding every feature's "
                + "geometry from WKB in both columns.")
    }

    enum Expected: String { case stored, rebuilt }

    /// The hidden argument that makes geoq-bench do one store-ready of the store named after it
    /// and print its milliseconds (see ``fresh(label:store:peer:runs:progress:)``).
    static let readyOnceOption = "--ready-once"

    /// One store-ready in this process, printed in milliseconds: what a new `geoq` process
    /// pays before its first answer, with no page of it touched before.
    static func readyOnce(locations: DataLocations, store: URL, expect: Expected) throws {
        print(String(format: "%.3f", try ready(locations: locations, store: store, expect: expect).milliseconds))
    }

    /// Store ready in new processes: each run starts this executable anew for one store-ready
    /// (``readyOnce(locations:store:expect:)``), of the store and then of the peer. Prints the ready
    /// time the process measured and its whole wall time (start, linking, catalog, ready, exit).
    static func fresh(label: String, store: URL, peer: URL, runs: Int, progress: Progress) throws {
        var ready: [Double] = [], wall: [Double] = [], peerReady: [Double] = [], peerWall: [Double] = []
        for run in 1...runs {
            progress.note("\(label): store ready in a new process, run \(run)/\(runs)")
            let a = try once(store, expect: .stored), b = try once(peer, expect: .rebuilt)
            ready.append(a.ready)
            wall.append(a.wall)
            peerReady.append(b.ready)
            peerWall.append(b.wall)
        }
        let r = Stats(ready), w = Stats(wall), pr = Stats(peerReady), pw = Stats(peerWall)
        print(
            "| – the same, each run a new process: ready (min / mean); whole process wall time | | | | "
                + String(
                    format:
                        "**%.1f ms** / %.1f ms; wall %.0f / %.0f ms | %.1f ms / %.1f ms; wall %.0f / %.0f ms | %.1f× |",
                    r.min, r.mean, w.min, w.mean, pr.min, pr.mean, pw.min, pw.mean, pr.min / r.min))
    }

    private static func once(_ store: URL, expect: Expected) throws -> (ready: Double, wall: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [readyOnceOption, store.path, expect.rawValue]
        let output = Pipe()
        process.standardOutput = output
        let start = ContinuousClock.now
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let wall = GeoqBench.nanoseconds(ContinuousClock.now - start) / 1e6
        guard process.terminationStatus == 0,
            let ready = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw BenchmarkFailure("store ready in a new process failed (\(process.terminationStatus)): \(text)") }
        return (ready, wall)
    }

    /// Opens `store` and loads every layer as the query commands and the service do; checks that
    /// every polygon layer's index came from where `expect` says.
    static func ready(locations: DataLocations, store: URL, expect: Expected) throws -> (
        milliseconds: Double, layers: Int, features: Int, vertices: Int
    ) {
        let start = ContinuousClock.now
        let library = try LayerLibrary(locations: locations, storeFile: store)
        let polygonNames = Set(library.polygonLayerNames)
        var features = 0, vertices = 0
        var layers: [Layer] = []
        for name in library.names {
            if polygonNames.contains(name) {
                let layer = try library.layer(named: name)
                layers.append(layer)
                features += layer.features.count
            } else {
                features += try library.pointLayer(named: name).features.count
            }
        }
        let elapsed = GeoqBench.nanoseconds(ContinuousClock.now - start) / 1e6
        for name in polygonNames {
            switch (expect, library.indexOrigin(of: name)) {
            case (.stored, .stored), (.rebuilt, .rebuilt): break
            case (_, let origin):
                throw BenchmarkFailure("\(name): index \(String(describing: origin)), expected \(expect)")
            }
        }
        for layer in layers { vertices += layer.features.reduce(0) { $0 + $1.geometry.vertexCount } }
        return (elapsed, library.names.count, features, vertices)
    }

    /// Where the time of one large layer goes: its rows (WKB decoded) and its index, read
    /// (with checksum and structure checks) or built, each timed on its own. In "ready" a large
    /// index's bytes are read on a second connection while the rows are decoded, so ready is
    /// less than their sum.
    static func breakdown(of name: String, in file: URL, peer: URL, runs: Int) throws {
        var rows: [Double] = [], read: [Double] = [], build: [Double] = []
        var bytes = 0
        for _ in 1...runs {
            let package = try GeoPackage.open(at: file.path, create: false, readOnly: true)
            var start = ContinuousClock.now
            let features = try package.features(of: name)
            rows.append(GeoqBench.nanoseconds(ContinuousClock.now - start) / 1e6)
            start = ContinuousClock.now
            let index = try package.withLayerIndex(
                of: name, kind: .init(rawValue: "polygon"), format: PolygonIndex.storageFormat
            ) { blob -> PolygonIndex in
                bytes = blob.bytes.count
                return try PolygonIndex(stored: blob, shapes: Layer.shapes(of: features))
            }.get()
            read.append(GeoqBench.nanoseconds(ContinuousClock.now - start) / 1e6)
            start = ContinuousClock.now
            let built = Layer.index(of: features)
            build.append(GeoqBench.nanoseconds(ContinuousClock.now - start) / 1e6)
            guard built.count == index.count else { throw BenchmarkFailure("\(name): index of another layer") }
        }
        let r = Stats(rows), i = Stats(read), b = Stats(build)
        print(
            "| – \(name) alone: rows read, WKB decoded | | | | "
                + String(format: "%.1f ms / %.1f ms | (same) | |", r.min, r.mean))
        print(
            "| – \(name) alone: index read (\(bytes / 1_000_000) MB, checksum, checks) / built | | | | "
                + String(format: "%.1f ms / %.1f ms | %.1f ms / %.1f ms | |", i.min, i.mean, b.min, b.mean))
    }
}

/// A benchmark whose own checks failed (a wrong answer would make its times meaningless).
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
