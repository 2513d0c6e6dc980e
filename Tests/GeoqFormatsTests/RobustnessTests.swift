import Foundation
import GeoqFormats
import GeoqTestSupport
import Testing

/// Damaged copies of real files (seeded byte flips and truncations) must give a FeatureCollection
/// or a FormatError naming the file — never a crash. A failing seed can be replayed exactly.
@Suite("Robustness on damaged input")
struct RobustnessTests {
    static let iterations = 150

    /// Flips 1–4 random bytes of `original` (or cuts it) per iteration, writes it to `url` and reads it.
    func damage(_ original: [UInt8], seed: UInt64, write url: URL, read: (URL) throws(FormatError) -> FeatureCollection)
        throws
    {
        var random = SeededRandom(seed: seed)
        for iteration in 0..<Self.iterations {
            var bytes = original
            if iteration % 5 == 4 {
                bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))
            } else {
                for _ in 0..<(1 + Int(random.next() % 4)) where !bytes.isEmpty {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            try Data(bytes).write(to: url)
            do {
                _ = try read(url)
            } catch {
                #expect(
                    error.description.contains(url.deletingPathExtension().lastPathComponent),
                    "seed \(seed), iteration \(iteration): \(error)")
            }
        }
    }

    @Test func geoJSON() throws {
        let original = [UInt8](
            try Data(contentsOf: TestData.url("pamplona/geopamplona_datos_MOVI_Pol_ZonaAccesoRestr.json")))
        let url = try makeTemporaryDirectory().appendingPathComponent("zones.geojson")
        try damage(original, seed: 1, write: url) { (u: URL) throws(FormatError) in try GeoJSONReader().read(at: u) }
    }

    @Test func csv() throws {
        let original = [UInt8](try Data(contentsOf: TestData.url("valencia/cargadores_electricos.csv")))
        let url = try makeTemporaryDirectory().appendingPathComponent("cargadores.csv")
        try damage(original, seed: 2, write: url) { (u: URL) throws(FormatError) in
            try OpendatasoftCSVReader().read(at: u)
        }
    }

    @Test func kml() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("sectores.kml")
        try damage(Array(KMLFixtures.sectors.utf8), seed: 3, write: url) { (u: URL) throws(FormatError) in
            try KMLReader().read(at: u)
        }
    }

    @Test(arguments: ["shp", "dbf"])
    func shapefile(_ part: String) throws {
        let dir = try makeTemporaryDirectory("shapefile" + part)
        for ext in ["shp", "shx", "dbf", "prj"] {
            try FileManager.default.copyItem(
                at: TestData.url("pamplona/shp_epsg25830/MOVI_Pol_ZonaAccesoRestr." + ext),
                to: dir.appendingPathComponent("zones." + ext))
        }
        let original = [UInt8](try Data(contentsOf: dir.appendingPathComponent("zones." + part)))
        let shp = dir.appendingPathComponent("zones.shp")
        try damage(original, seed: part == "shp" ? 4 : 5, write: dir.appendingPathComponent("zones." + part)) {
            (_: URL) throws(FormatError) in try ShapefileReader().read(at: shp)
        }
    }
}
