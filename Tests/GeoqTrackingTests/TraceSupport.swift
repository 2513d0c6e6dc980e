import Foundation
import GeoqCore
import GeoqLayers
import GeoqQuery
import GeoqTariffs
import GeoqTestSupport
import GeoqTracking

/// Synthetic GPS traces: a true path sampled at 1 Hz, each fix moved by seeded Gaussian noise
/// (Box–Muller), clipped at three standard deviations so a test's bounds hold by construction.
struct TraceMaker {
    var random: SeededRandom
    let device: String
    /// Per-axis standard deviation of the noise in metres.
    let sigma: Double
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
