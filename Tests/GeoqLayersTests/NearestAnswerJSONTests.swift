import Foundation
import GeoqCore
import GeoqJSON
import GeoqLayers
import GeoqPROJ
import GeoqTestSupport
import Testing

@testable import GeoqQuery

/// The nearest and services answers written by hand (`JSONText`) are the text JSONEncoder
/// writes for them (sorted keys, slashes unescaped: the CLI's `--format json`).
@Suite struct NearestAnswerJSONTests {
    static func encoderText(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func handText(_ value: some JSONWritable) -> String { String(decoding: JSONText.of(value), as: UTF8.self) }

    @Test func realAnswersAsJSONEncoderWritesThem() throws {
        let library = try RealLayerNearestQueryTests.library()
        let query = NearestQuery(geodesic: Geodesic.wgs84)
        let fallas = try library.pointLayer(named: "fallas")
        var answers: [NearestAnswer] = []
        var rng = SeededRandom(seed: 77)
        for _ in 0..<20 {
            let p = Point(latitude: rng.uniform(39.42...39.52), longitude: rng.uniform(-0.42...(-0.32)))
            answers.append(try query.nearest(fallas, to: p, limit: 10, library: library))
        }
        // Links (children's falla, marquee), categories and pins; competition order; another layer.
        answers.append(
            try query.nearest(
                fallas, to: RealLayerNearestQueryTests.cityHall, limit: 40, within: 1500, order: .category))
        let bikes = try library.pointLayer(named: "valencia-valenbisi")
        answers.append(try query.nearest(bikes, to: RealLayerNearestQueryTests.cityHall, limit: 5))
        answers.append(try query.nearest(bikes, to: RealLayerNearestQueryTests.cityHall, limit: 5, within: 1))
        #expect(answers.contains { $0.hits.contains { $0.links?.count == 2 } })
        #expect(answers.contains { $0.hits.contains { $0.category != nil && $0.pin != nil } })
        #expect(answers.contains { $0.hits.isEmpty })
        for answer in answers { #expect(Self.handText(answer) == (try Self.encoderText(answer))) }

        let services = try query.services(at: RealLayerNearestQueryTests.cityHall, perType: 3, library: library)
        #expect(services.groups.count >= 7)
        #expect(Self.handText(services) == (try Self.encoderText(services)))
    }

    @Test func madeUpAnswersAsJSONEncoderWritesThem() throws {
        let linked = NearestAnswer.Linked(id: "a\"b", name: nil, layer: "l/1", geometryType: "Polygon")
        let odd = NearestAnswer.Hit(
            id: "\u{1}\t\u{7F}é🅰", name: "Nom / Nombre \\", category: "", categoryCode: nil, distanceMetres: 0,
            bearingDegrees: 359.99999999999994, position: .init(latitude: -90, longitude: 180),
            geoURI: "geo:-90,180", links: ["z": linked, "a": linked, "Zz": linked, "é": linked, "a0": linked],
            pin: nil)
        let plain = NearestAnswer.Hit(
            id: "1", name: nil, category: nil, categoryCode: "1A", distanceMetres: 1e-7, bearingDegrees: -0.0,
            position: .init(latitude: 1e16, longitude: 0.1), geoURI: "", links: [:], pin: "green")
        let answers = [
            NearestAnswer(
                query: .init(latitude: 0, longitude: 0), layer: "x\n", approximate: true, approximation: "≈ \"near\"",
                order: "distance", hits: [odd, plain]),
            NearestAnswer(
                query: .init(latitude: 39.4699, longitude: -0.3763), layer: "", approximate: false,
                approximation: nil, order: "category", hits: []),
        ]
        for answer in answers { #expect(Self.handText(answer) == (try Self.encoderText(answer))) }
        let services = ServicesAnswer(
            query: .init(latitude: 1, longitude: 2),
            groups: [.init(type: "t", layer: "l", hits: [plain, odd]), .init(type: "", layer: "", hits: [])])
        #expect(Self.handText(services) == (try Self.encoderText(services)))
        #expect(
            Self.handText(ServicesAnswer(query: .init(latitude: 1, longitude: 2), groups: []))
                == (try Self.encoderText(ServicesAnswer(query: .init(latitude: 1, longitude: 2), groups: []))))
    }

    /// The geo: URI's coordinates are `%.7f` trimmed, whichever way they are written: real
    /// layer positions, random degrees, values with few decimals, halves at the 8th decimal,
    /// tiny and signed zeros.
    @Test func geoURICoordinatesAreTrimmedPrintf() throws {
        func printf(_ value: Double) -> String {
            var s = String(format: "%.7f", value)
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
            return s
        }
        let library = try RealLayerNearestQueryTests.library()
        var values: [Double] = [
            0, -0.0, 1, -180, 180, 90, 39.4699, -0.3763, 1e-7, 5e-8, 4.9999999e-8, 1e-5, 0.1, 0.00000015,
        ]
        for name in ["fallas", "valencia-valenbisi"] {
            values += try library.pointLayer(named: name).positions.flatMap { [$0.latitude, $0.longitude] }
        }
        var rng = SeededRandom(seed: 31)
        for _ in 0..<200_000 {
            values.append(rng.uniform(-180...180))
            let decimals = Double(Int(rng.uniform(0...9)))
            let pow10 = Foundation.pow(10, decimals)
            values.append((rng.uniform(-180...180) * pow10).rounded() / pow10)
            values.append(((rng.uniform(-180...180) * 1e7).rounded() + 0.5) / 1e7)
        }
        for value in values { #expect(PointLayer.coordinate(value) == printf(value), "\(value)") }
    }
}
