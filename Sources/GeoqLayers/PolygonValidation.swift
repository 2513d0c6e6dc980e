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
    /// feature does not leave the other threads idle at the end. Threads that call
    /// `helpers.help()` meanwhile take features too.
    static func verdicts(of features: [Feature], threads: Int, helpers: Helpers? = nil) -> [Verdict] {
        guard !features.isEmpty else { return [] }
        let work = Work(features)
        helpers?.offer(work)
        defer { helpers?.withdraw() }
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, features.count))) { _ in work.take() }
        work.finished.wait()
        return work.results.withLock { $0 }
    }

    /// A place where threads with nothing else to do join the checks in progress, if any: an
    /// import's writer, once its rows are written, helps with the checks it waits for.
    final class Helpers: Sendable {
        private let current = Mutex<Work?>(nil)

        init() {}

        /// Checks features of the work in progress until none is left to take; returns at once
        /// when no checks are in progress.
        func help() {
            current.withLock { $0 }?.take()
        }

        fileprivate func offer(_ work: Work) { current.withLock { $0 = work } }
        fileprivate func withdraw() { current.withLock { $0 = nil } }
    }

    /// One layer's checks: features handed out largest first to whichever thread asks.
    ///
    /// Invariant: `results` holds the verdict of every feature taken and checked; `remaining`
    /// counts the features not yet checked, and `finished` is signalled once when it reaches 0.
    fileprivate final class Work: Sendable {
        let features: [Feature]
        let order: [Int]
        let next = Atomic<Int>(0)
        let remaining: Atomic<Int>
        let results: Mutex<[Verdict]>
        let finished = DispatchSemaphore(value: 0)

        init(_ features: [Feature]) {
            self.features = features
            order = features.indices.sorted { vertexCount(features[$0]) > vertexCount(features[$1]) }
            remaining = Atomic(features.count)
            results = Mutex([Verdict](repeating: .notAreal, count: features.count))
        }

        /// Checks features until none is left to take, with a GEOS context of this thread's own.
        func take() {
            var context: GEOSContext?
            while true {
                let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard k < order.count else { return }
                if context == nil { context = GEOSContext() }
                let verdict = check(features[order[k]], context: context!)
                results.withLock { $0[order[k]] = verdict }
                if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { finished.signal() }
            }
        }
    }

    /// GEOS's verdict, asked only when ``ValidityProof`` cannot show the polygon valid: the
    /// proof covers the common case (no two rings touch) in a fraction of GEOS's time, and
    /// whatever it cannot decide, including every invalid polygon, gets GEOS's answer. Where
    /// only parts touch one another (islands), GEOS is asked about those parts alone.
    static func check(_ feature: Feature, context: GEOSContext) -> Verdict {
        guard let areal = feature.geometry.areal else { return .notAreal }
        switch ValidityProof.decide(areal.polygons) {
        case .proved:
            return .valid
        case .validIfValid(let parts):
            // GEOS on the parts whose boundaries may meet; should they be invalid, its verdict
            // on the whole feature below gives the reason and place as they always were.
            let touching = Geometry.multiPolygon(MultiPolygon(parts.map { areal.polygons[$0] }))
            if let geometry = try? context.makeGeometry(touching), context.validity(of: geometry).isValid {
                return .valid
            }
        case .undecided:
            break
        }
        let geometry: GEOSGeometry
        do { geometry = try context.makeGeometry(feature.geometry) } catch { return .unbuildable("\(error)") }
        switch context.validity(of: geometry) {
        case .valid: return .valid
        case .invalid(let reason, let location): return .invalid(reason: reason, location: location)
        }
    }

    fileprivate static func vertexCount(_ feature: Feature) -> Int {
        feature.geometry.areal?.vertexCount ?? 0
    }
}
