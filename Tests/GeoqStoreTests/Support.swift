import Foundation
import GeoqCore
import GeoqTestSupport

@testable import GeoqStore

/// A fresh directory under the system temporary directory, removed by `cleanUp()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

enum Fixtures {
    static func ring(_ coordinates: [(Double, Double)]) -> Ring {
        try! Ring(coordinates.map { Point(x: $0.0, y: $0.1) })
    }

    /// An axis-aligned square ring, counter-clockwise, closed.
    static func square(_ minX: Double, _ minY: Double, _ size: Double) -> Ring {
        ring([(minX, minY), (minX + size, minY), (minX + size, minY + size), (minX, minY + size), (minX, minY)])
    }

    /// A polygon with a hole, a multipolygon, non-ASCII property names and values, numbers,
    /// Bools, a mixed column and nulls. Binary fractions only, so the extent is exact:
    /// x -1.75 … -1.4375, y 42.5 … 43.
    static let pamplonaLike: [Feature] = [
        Feature(
            id: "1", name: "Casco Viejo/Alde Zaharra",
            geometry: .multiPolygon(
                MultiPolygon([
                    Polygon(shell: square(-1.75, 42.5, 0.125), holes: [square(-1.6875, 42.5625, 0.03125)]),
                    Polygon(shell: square(-1.5, 42.875, 0.0625)),
                ])),
            properties: [
                "Código Sección": .string("31201-001"), "AÑO": .number(2023), "área m²": .number(1234.5),
                "activo": .bool(true), "mezcla": .number(7), "vacío": .null,
            ]),
        Feature(
            id: "2", name: "Ensanche/Zabalgunea",
            geometry: .multiPolygon(
                MultiPolygon([Polygon(shell: square(-1.625, 42.75, 0.125))])),
            properties: [
                "Código Sección": .string("31201-002 «ñ»"), "AÑO": .number(-0.1), "área m²": .number(1e-7),
                "activo": .bool(false), "mezcla": .string("siete"), "vacío": .null,
            ]),
        Feature(
            id: "2", name: nil,
            geometry: .multiPolygon(
                MultiPolygon([Polygon(shell: square(-1.5, 42.9375, 0.0625))])),
            properties: [
                "Código Sección": .string("quote \" and 'single'"), "AÑO": .null, "área m²": .number(3),
                "activo": .null, "mezcla": .null, "vacío": .null,
            ]),
    ]

    static func input(_ name: String, _ features: [Feature], title: String? = nil) -> StoredLayerInput {
        StoredLayerInput(
            name: name, title: title ?? "Title of \(name)", features: features, source: "pamplona/\(name).json",
            sourceCRS: "EPSG:25830", approximate: name.hasSuffix("sectors") ? "approximated by barrios" : nil,
            notes: ["first note", "second note, with ñ"])
    }

    /// `count` random polygons of `vertices` vertices each (star-shaped, so simple), seeded.
    static func randomPolygons(count: Int, vertices: Int, seed: UInt64) -> [Feature] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { i in
            let cx = random.uniform(-1.7 ... -0.3)
            let cy = random.uniform(39.4...42.9)
            var points: [Point] = []
            for k in 0..<vertices {
                let angle = Double(k) / Double(vertices) * 2 * Double.pi
                let r = random.uniform(0.001...0.01)
                points.append(Point(x: cx + r * cos(angle), y: cy + r * sin(angle)))
            }
            points.append(points[0])
            return Feature(
                id: String(i), name: "polygon \(i)", geometry: .polygon(Polygon(shell: try! Ring(points))),
                properties: ["n": .number(Double(i)), "label": .string("p\(i)")])
        }
    }
}
