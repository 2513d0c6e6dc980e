import Foundation
import GeoqCore
import GeoqLayers
import GeoqQuery
import GeoqTariffs
import GeoqTestSupport
import GeoqTracking
import Testing

/// Synthetic GPS traces: a true path sampled at 1 Hz, each fix moved by seeded Gaussian noise
/// (Box–Muller), clipped at three standard deviations so a test's bounds hold by construction.
struct TraceMaker {
    var random: SeededRandom
    let device: String
    /// Per-axis standard deviation of the noise in metres (a street's phone: more while
    /// standing, under buildings, than while moving).
    var sigma: Double
    let accuracy: Double?
    /// Add the device's own speed (true speed plus 0.3 m/s noise) to each fix.
    let withSpeed: Bool
    var time: Date
    var fixes: [Fix] = []

    init(seed: UInt64, device: String, sigma: Double, accuracy: Double?, withSpeed: Bool = false, start: Date) {
        random = SeededRandom(seed: seed)
        self.device = device
        self.sigma = sigma
        self.accuracy = accuracy
        self.withSpeed = withSpeed
        time = start
    }

    mutating func gaussian() -> Double {
        let u = random.uniform(1e-12...1), v = random.uniform(0...1)
        return min(3, max(-3, (-2 * log(u)).squareRoot() * cos(2 * .pi * v)))
    }

    /// Moves from `a` to `b` at `speed` m/s, one fix a second (the fix at `a` included).
    mutating func move(from a: Point, to b: Point, speed: Double) {
        let metres = TraceMaker.distance(a, b)
        let steps = max(1, Int((metres / speed).rounded()))
        for i in 0..<steps {
            let f = Double(i) / Double(steps)
            fix(at: Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f), speed: speed)
        }
    }

    /// Stays at `p` for `seconds`.
    mutating func stay(at p: Point, seconds: Int) {
        for _ in 0..<seconds { fix(at: p, speed: 0) }
    }

    mutating func fix(at p: Point, speed: Double) {
        let metric = LocalMetric(wgs84AtLatitude: p.y)
        let dx = gaussian() * sigma, dy = gaussian() * sigma
        let measured = withSpeed ? max(0, speed + 0.3 * gaussian()) : nil
        fixes.append(
            Fix(
                device: device, time: time, latitude: p.y + dy / metric.metresPerDegreeY,
                longitude: p.x + dx / metric.metresPerDegreeX, accuracy: accuracy, speed: measured))
        time += 1
    }

    static func distance(_ a: Point, _ b: Point) -> Double { LocalMetric(wgs84AtLatitude: a.y).distance(a, b) }

    /// `p` moved `east` and `north` metres.
    static func offset(_ p: Point, east: Double, north: Double) -> Point {
        let metric = LocalMetric(wgs84AtLatitude: p.y)
        return Point(x: p.x + east / metric.metresPerDegreeX, y: p.y + north / metric.metresPerDegreeY)
    }
}

/// Runs fixes through a geofencer as a service would: one track per device, ignored fixes counted.
struct Replay {
    var events: [TrackingEvent] = []
    var ignored: [IgnoredFix] = []
    var tracks: [String: DeviceTrack] = [:]

    init(_ fixes: [Fix], through fencer: Geofencer) {
        for fix in fixes {
            var track = tracks[fix.device]
            let step = fencer.advance(&track, with: fix)
            tracks[fix.device] = track
            events += step.events
            if let i = step.ignored { ignored.append(i) }
        }
    }

    var kinds: [TrackingEvent.Kind] { events.map(\.event) }
}

enum Fixtures {
    static func time(_ iso: String) -> Date {
        let f = ISO8601DateFormatter()
        return f.date(from: iso)!
    }

    static let monday10 = time("2026-11-23T09:00:00Z")

    /// A 0.02° × 0.02° square "Q" near Pamplona (about 1.6 km east–west, 2.2 km north–south).
    static let west = -1.65, east = -1.63, south = 42.80, north = 42.82

    static func square(id: String = "Q", name: String = "Square") throws -> Feature {
        let ring = try Ring(closing: [
            Point(x: west, y: south), Point(x: east, y: south), Point(x: east, y: north), Point(x: west, y: north),
        ])
        return Feature(id: id, name: name, geometry: .polygon(Polygon(shell: ring)))
    }

    static func layer(_ features: [Feature], name: String = "squares") -> Layer {
        Layer(
            name: name, title: "Made in the test", features: features, approximation: nil, source: "test",
            sourceCRS: "EPSG:4326", notes: [])
    }

    static func library() throws -> LayerLibrary {
        try LayerLibrary(
            locations: DataLocations(
                catalogFile: TestData.packageRoot.appendingPathComponent("data/layers.json"),
                dataDirectory: TestData.directory, storeFile: URL(fileURLWithPath: "/nonexistent/store.gpkg")))
    }

    static func pamplonaTariffs() throws -> CityTariffs {
        try CityTariffs.load(city: "pamplona", dataDirectory: TestData.packageRoot.appendingPathComponent("data"))
    }
}

/// Pamplona's Sector 2 (alone, so that a drive starts and ends outside every feature), its
/// spot deepest inside, and the way out east.
struct Sector2 {
    let sectors: Layer
    let layer: Layer
    /// The spot of a 40 × 40 grid over the sector's box deepest inside (over 150 m from every edge).
    let parking: Point
    /// Metres from `parking` to the sector's edge going east (outside from there for 400 m).
    let edge: Double

    init() throws {
        sectors = try Fixtures.library().layer(named: "pamplona-sectors")
        let feature = try #require(sectors.features.first { $0.id == "2" })
        layer = Fixtures.layer([feature], name: "pamplona-sectors")
        let box = layer.index.boundingBox(of: 0)
        var best = (point: Point(x: box.minX, y: box.minY), depth: -1.0)
        for i in 1..<40 {
            for j in 1..<40 {
                let p = Point(
                    x: box.minX + (box.maxX - box.minX) * Double(i) / 40,
                    y: box.minY + (box.maxY - box.minY) * Double(j) / 40)
                guard layer.index.locate(p, item: 0) == .interior else { continue }
                let depth = Self.depth(of: p, in: layer)
                if depth > best.depth { best = (p, depth) }
            }
        }
        parking = best.point
        var metres = 0.0
        while layer.index.locate(TraceMaker.offset(best.point, east: metres, north: 0), item: 0) != .exterior {
            metres += 1
        }
        edge = metres
        #expect(layer.index.locate(parking, item: 0) == .interior)
        #expect(best.depth > 150)
        for extra in stride(from: 1.0, through: 400, by: 5) {
            #expect(layer.index.locate(east(edge + extra), item: 0) == .exterior)
        }
    }

    /// The point `metres` east of the parking spot.
    func east(_ metres: Double) -> Point { TraceMaker.offset(parking, east: metres, north: 0) }

    /// Metres from `p` to the sector's boundary.
    func depth(of p: Point) -> Double { Self.depth(of: p, in: layer) }

    static func depth(of p: Point, in layer: Layer) -> Double {
        layer.index.nearestBoundaryPoint(to: p, item: 0, metric: LocalMetric(wgs84AtLatitude: p.y)).distance
    }
}
