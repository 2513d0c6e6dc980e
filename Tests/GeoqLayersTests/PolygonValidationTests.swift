import Foundation
import GeoqCore
import GeoqFormats
import GeoqGEOS
import GeoqTestSupport
import Testing

@testable import GeoqLayers

/// Validity checked on several threads gives, feature for feature, GEOS's verdict taken one by
/// one on a single context; and what a loader keeps, skips or reports does not depend on the
/// number of threads.
@Suite("Polygon validation on several threads")
struct PolygonValidationTests {
    static let naturalEarth = TestData.external("natural-earth/ne_10m_admin_0_countries_deu.shp")

    /// Natural Earth's 250 countries (one invalid: Egypt), on 1, 2 and 5 threads.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: naturalEarth.path),
            "Natural Earth is not fetched: run tools/fetch-benchmark-data.sh natural-earth"))
    func naturalEarthVerdictsMatchGEOSOneByOne() throws {
        let features = try ShapefileReader(options: ReadOptions(idField: "ADM0_A3")).read(at: Self.naturalEarth)
            .features
        let context = GEOSContext()
        let expected = try features.map { f -> PolygonValidation.Verdict in
            guard f.geometry.areal != nil else { return .notAreal }
            switch context.validity(of: try context.makeGeometry(f.geometry)) {
            case .valid: return .valid
            case .invalid(let reason, let location): return .invalid(reason: reason, location: location)
            }
        }
        #expect(expected.count == 250)
        #expect(expected.filter { $0 != .valid }.count == 1, "one invalid polygon")
        for threads in [1, 2, 5] {
            #expect(PolygonValidation.verdicts(of: features, threads: threads) == expected, "\(threads) threads")
        }
    }

    /// The bow tie among valid squares: refused by name, or kept, skipped and reported alike,
    /// whatever the number of threads.
    @Test func policiesDoNotDependOnThreads() throws {
        var features = ""
        for k in 0..<40 {
            let x = Double(k * 3)
            let ring =
                k == 17
                ? "[[\(x),0],[\(x + 1),1],[\(x + 1),0],[\(x),1],[\(x),0]]"
                : "[[\(x),0],[\(x + 1),0],[\(x + 1),1],[\(x),1],[\(x),0]]"
            features +=
                (k > 0 ? "," : "")
                + "{\"type\":\"Feature\",\"id\":\"f\(k)\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[\(ring)]}}"
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-validation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("squares.geojson")
        try Data("{\"type\":\"FeatureCollection\",\"features\":[\(features)]}".utf8).write(to: url)
        let spec = LayerSpec(name: "t", title: "T", source: url.path)
        for threads in [1, 2, 7] {
            do {
                _ = try LayerLoader(validationThreads: threads).prepare(spec, from: url)
                Issue.record("the bow tie must be refused")
            } catch {
                #expect(error.code == "invalid-polygon")
                #expect(error.description.contains("feature #18 (id f17)"))
                #expect(error.description.contains("Self-intersection"))
            }
            let skipped = try LayerLoader(invalidPolygons: .skip, validationThreads: threads).prepare(spec, from: url)
            #expect(skipped.features.count == 39 && !skipped.features.contains { $0.id == "f17" })
            #expect(skipped.report.problems.map(\.feature) == [18])
            let kept = try LayerLoader(invalidPolygons: .keep, validationThreads: threads).prepare(spec, from: url)
            #expect(kept.features.map(\.id) == (0..<40).map { "f\($0)" })
        }
    }
}
