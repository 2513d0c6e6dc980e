import Foundation
import GeoqCore
import GeoqGEOS
import GeoqLayers
import GeoqNearby
import GeoqPROJ
import GeoqQuery
import GeoqTestSupport

/// Point-in-polygon lookups per layer, geoq's index against GEOS prepared geometries behind a
/// GEOS STRtree (through geoq's own GEOS bindings), on the same seeded random points in the
/// same run. Both must give the same answer for every point (mismatches are printed).
/// Prints a Markdown table on standard output; progress goes to standard error when it is a
/// terminal.
enum WhichSectorBenchmark {
    static func run(catalog: LayerCatalog, root: URL, options: BenchmarkOptions, progress: Progress) throws {
        var layers: [(label: String, load: () throws -> Layer)] = [
            ("Pamplona sectors", { try LayerLoader().load("pamplona-sectors", from: catalog) }),
            ("Valencia census sections", { try LayerLoader().load("valencia-census-sections", from: catalog) }),
        ]
        let naturalEarth = root.appendingPathComponent("data/external/natural-earth/ne_10m_admin_0_countries_deu.shp")
        if FileManager.default.fileExists(atPath: naturalEarth.path) {
            let spec = LayerSpec(
                name: "natural-earth-countries", title: "Natural Earth 1:10m countries", source: naturalEarth.path,
                idField: "ADM0_A3", nameField: "NAME")
            // Natural Earth has invalid polygons (Egypt); keep them, as a benchmark of real data.
            layers.append(
                ("Natural Earth countries", { try LayerLoader(invalidPolygons: .keep).load(spec, from: naturalEarth) }))
        } else {
            progress.note("Natural Earth not found; run tools/fetch-benchmark-data.sh natural-earth")
        }

        if let only = options.only { layers = layers.filter { $0.label.lowercased().contains(only.lowercased()) } }
        // `--only store` runs just the store half.
        print(
            "| layer | features | vertices | load + index | geoq ns/lookup (min / mean) | GEOS ns/lookup (min / mean) | GEOS / geoq | geoq full which-sector ns | agree |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        var loaded: [(label: String, layer: Layer)] = []
        for (label, load) in layers {
            progress.note("loading \(label)")
            let start = ContinuousClock.now
            let layer = try load()
            let loadTime = ContinuousClock.now - start
            loaded.append((label, layer))
            let result = try measure(layer, options: options, progress: progress, label: label)
            let vertices = layer.features.reduce(0) { $0 + ($1.geometry.areal?.vertexCount ?? 0) }
            print(
                "| \(label) | \(layer.features.count) | \(vertices) | \(GeoqBench.format(loadTime)) "
                    + "| \(GeoqBench.fmt(result.geoq.min)) / \(GeoqBench.fmt(result.geoq.mean)) | \(GeoqBench.fmt(result.geos.min)) / \(GeoqBench.fmt(result.geos.mean)) "
                    + "| \(String(format: "%.1f×", result.geos.min / result.geoq.min)) | \(GeoqBench.fmt(result.full.min)) "
                    + "| \(result.agreements)/\(result.points) |")
        }
        print("")
        print(
            "Points: \(options.points) per layer, uniform in the layer's bounding box (seed \(options.seed)); \(options.runs) runs, min and mean of ns per lookup."
        )
        print(
            "geoq: PolygonIndex (STR R-tree of features, y-stripe edge index per polygon), covers. GEOS \(GEOSContext.version): GEOSSTRtree query + GEOSPreparedCovers per candidate, one GEOS point per lookup."
        )
        print(
            "Full which-sector: covering features, nearest-edge search and geodesic edge distance (SectorLookup.answer)."
        )
        try wholeAnswers(loaded.filter { $0.label != "Natural Earth countries" }, options: options, progress: progress)
    }

    /// The whole answer, inside and outside apart, against GEOS + PROJ (``WholeAnswerBenchmark``).
    /// Each city layer's swap candidates are the other city layers measured here.
    static func wholeAnswers(
        _ layers: [(label: String, layer: Layer)], options: BenchmarkOptions, progress: Progress
    ) throws {
        guard !layers.isEmpty else { return }
        print("")
        print(
            "| layer | points in / out | geoq inside ns (min / mean) | GEOS + PROJ inside ns (min / mean) | ratio "
                + "| geoq outside ns (min / mean) | GEOS + PROJ outside ns (min / mean) | ratio | geoq mixed ns (min / mean) "
                + "| agree |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for (label, layer) in layers {
            var rng = SeededRandom(seed: options.seed)
            let box = layer.index.boundingBox
            let points = (0..<Swift.max(1, options.points / 10)).map { _ in
                Point(
                    x: Double.random(in: box.minX...box.maxX, using: &rng),
                    y: Double.random(in: box.minY...box.maxY, using: &rng))
            }
            let r = try WholeAnswerBenchmark.measure(
                layer, others: layers.filter { $0.label != label }.map(\.layer), points: points, runs: options.runs,
                progress: progress, label: label)
            print(
                "| \(label) | \(r.insideCount) / \(r.outsideCount) "
                    + "| \(GeoqBench.fmt(r.inside.min)) / \(GeoqBench.fmt(r.inside.mean)) "
                    + "| \(GeoqBench.fmt(r.geosInside.min)) / \(GeoqBench.fmt(r.geosInside.mean)) "
                    + "| \(String(format: "%.1f×", r.geosInside.min / r.inside.min)) "
                    + "| \(GeoqBench.fmt(r.outside.min)) / \(GeoqBench.fmt(r.outside.mean)) "
                    + "| \(GeoqBench.fmt(r.geosOutside.min)) / \(GeoqBench.fmt(r.geosOutside.mean)) "
                    + "| \(String(format: "%.1f×", r.geosOutside.min / r.outside.min)) "
                    + "| \(GeoqBench.fmt(r.mixed.min)) / \(GeoqBench.fmt(r.mixed.mean)) "
                    + "| \(r.agreements)/\(points.count) |")
        }
        print("")
        print(
            "Whole answers: \(Swift.max(1, options.points / 10)) points per layer, uniform in its box (seed \(options.seed)), "
                + "timed apart inside and outside, then all in their random order (mixed); \(options.runs) runs. geoq: SectorLookup.answer with EllipsoidGeodesic "
                + "(closed form under 100 km, geoq's own Karney beyond), the other city layers as swap candidates. "
                + "GEOS + PROJ: the layer scaled to metres at its centre latitude, STRtree query + GEOSPreparedCovers, "
                + "GEOSPreparedNearestPoints on the prepared boundary, the STRtree's nearest search by GEOSPreparedDistance "
                + "for a point outside, PROJ geod_inverse for the distance. Agree: same features and locations, distances "
                + "within 2 cm + 0.1 % (GEOS measures in one plane per layer, geoq in the query's own).")
    }

    struct Result {
        var geoq: Stats, geos: Stats, full: Stats
        var agreements: Int, points: Int
    }

    static func measure(_ layer: Layer, options: BenchmarkOptions, progress: Progress, label: String) throws -> Result {
        var rng = SeededRandom(seed: options.seed)
        let box = layer.index.boundingBox
        let points = (0..<options.points).map { _ in
            Point(
                x: Double.random(in: box.minX...box.maxX, using: &rng),
                y: Double.random(in: box.minY...box.maxY, using: &rng))
        }

        // The GEOS peer: prepared geometries in an STRtree, built through our bindings.
        let context = GEOSContext()
        let geometries = try layer.features.map { try context.makeGeometry($0.geometry) }
        let prepared = try geometries.map { try context.prepare($0) }
        let tree = try GEOSSTRtree(context: context, items: geometries.enumerated().map { ($1, $0) })

        func geosCovering(_ p: Point) throws -> [Int] {
            let g = try context.makePoint(p)
            var hits: [Int] = []
            try tree.query(g) { id in if (try? prepared[id].covers(g)) == true { hits.append(id) } }
            return hits.sorted()
        }
        var agreements = 0
        for p in points {
            let ours = layer.index.covering(p)
            if ours == (try geosCovering(p)) { agreements += 1 }
        }
        if agreements != points.count {
            progress.note("\(label): \(points.count - agreements) points where geoq and GEOS disagree")
        }

        var geoqTimes: [Double] = [], geosTimes: [Double] = [], fullTimes: [Double] = []
        var sink = 0
        let lookup = SectorLookup(layer: layer, geodesic: EllipsoidGeodesic.wgs84)
        let fullPoints = points.prefix(Swift.max(1, points.count / 10))
        for run in 1...options.runs {
            progress.note("\(label): run \(run)/\(options.runs)")
            geoqTimes.append(GeoqBench.time(points.count) { sink &+= geoqPass(layer.index, points) })
            geosTimes.append(
                try GeoqBench.timeThrowing(points.count) {
                    sink &+= try geosPass(context, tree, prepared, points)
                })
            fullTimes.append(
                GeoqBench.time(fullPoints.count) {
                    for p in fullPoints { sink &+= lookup.answer(for: p).inside.count }
                })
        }
        if sink == 42 { print("") }  // keep the work observable
        return Result(
            geoq: Stats(geoqTimes), geos: Stats(geosTimes), full: Stats(fullTimes), agreements: agreements,
            points: points.count)
    }

    /// One lookup per point through geoq's index. Not inlined, so that an instruction count
    /// (`valgrind --tool=callgrind --toggle-collect='*geoqPass*'`) isolates it.
    @inline(never)
    static func geoqPass(_ index: PolygonIndex, _ points: [Point]) -> Int {
        var sink = 0
        for p in points { index.forEachCovering(p) { sink &+= $0 } }
        return sink
    }

    /// One lookup per point through GEOS: a point, an STRtree query, prepared covers per
    /// candidate. Not inlined, for the same reason.
    @inline(never)
    static func geosPass(
        _ context: GEOSContext, _ tree: GEOSSTRtree, _ prepared: [GEOSPreparedGeometry], _ points: [Point]
    ) throws -> Int {
        var sink = 0
        for p in points {
            let g = try context.makePoint(p)
            try tree.query(g) { id in if (try? prepared[id].covers(g)) == true { sink &+= id } }
        }
        return sink
    }
}
