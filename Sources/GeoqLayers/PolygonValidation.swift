import Dispatch
import GeoqCore
import GeoqGEOS
import Synchronization

/// GEOS's validity verdict on every polygon of a layer, computed on several threads: checking
/// validity is most of the work of preparing a large layer once it is read, and each feature is
/// checked on its own.
enum PolygonValidation {
    enum Verdict: Sendable, Equatable {
        /// Points and lines: no validity to check here.
        case notAreal
        case valid
        case invalid(reason: String, location: Point?)
        /// GEOS refused to build the geometry (its message).
        case unbuildable(String)
    }

    /// The verdict for each feature, in order. Each thread has its own GEOS context (contexts
    /// must not be shared); the largest features are handed out first, so that one huge
    /// feature does not leave the other threads idle at the end.
    static func verdicts(of features: [Feature], threads: Int) -> [Verdict] {
        let order = features.indices.sorted { vertexCount(features[$0]) > vertexCount(features[$1]) }
        let next = Atomic<Int>(0)
        let results = Mutex([Verdict](repeating: .notAreal, count: features.count))
        let workers = max(1, min(threads, order.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let context = GEOSContext()
            while true {
                let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard k < order.count else { return }
                let verdict = check(features[order[k]], context: context)
                results.withLock { $0[order[k]] = verdict }
            }
        }
        return results.withLock { $0 }
    }

    /// GEOS's verdict, asked only when ``ValidityProof`` cannot show the polygon valid: the
    /// proof covers the common case (no two rings touch) in a fraction of GEOS's time, and
    /// whatever it cannot decide, including every invalid polygon, gets GEOS's answer.
    static func check(_ feature: Feature, context: GEOSContext) -> Verdict {
        guard let areal = feature.geometry.areal else { return .notAreal }
        if ValidityProof.provesValid(areal.polygons) { return .valid }
        let geometry: GEOSGeometry
        do { geometry = try context.makeGeometry(feature.geometry) } catch { return .unbuildable("\(error)") }
        switch context.validity(of: geometry) {
        case .valid: return .valid
        case .invalid(let reason, let location): return .invalid(reason: reason, location: location)
        }
    }

    private static func vertexCount(_ feature: Feature) -> Int {
        feature.geometry.areal?.vertexCount ?? 0
    }
}
