import Dispatch
import Foundation
import GeoqCore
import GeoqStore

/// Imports a data file into the store (a GeoPackage or a shared database) as one layer, replacing
/// any layer of that name in a single transaction: a failed import leaves the store as it was.
public struct LayerImporter: Sendable {
    public var invalidPolygons: LayerLoader.InvalidPolygonPolicy
    /// Whether a polygon layer imported into a GeoPackage gets its packed index stored beside it
    /// (so that loading it does not build it); off only to time the import without that step.
    public var writesIndex = true
    /// Threads that check polygons with GEOS at once (see ``LayerLoader/validationThreads``);
    /// two fewer (at least one) while the rows are written and indexed beside the checks.
    public var validationThreads: Int

    public init(
        invalidPolygons: LayerLoader.InvalidPolygonPolicy = .fail, validationThreads: Int = LayerLoader.processorCount
    ) {
        self.invalidPolygons = invalidPolygons
        self.validationThreads = validationThreads
    }

    /// Reads `spec`'s source at `url`, checks it, and writes it to the GeoPackage `storeFile`
    /// (created if missing). Returns the report of what was read, written, repaired, skipped.
    public func importLayer(_ spec: LayerSpec, from url: URL, into storeFile: URL) throws(LayerError) -> LoadReport {
        try importLayer(spec, from: url, into: .geoPackage(storeFile))
    }

    /// Reads `spec`'s source at `url`, checks it, and writes it to `store`: a GeoPackage (created
    /// if missing) or a shared database (its tables made on first use; the layer's new version
    /// announced to replicas). Returns the report of what was read, written, repaired, skipped.
    /// A failure of the database is ``LayerError/store(_:)``.
    public func importLayer(_ spec: LayerSpec, from url: URL, into store: StoreAddress) throws(LayerError) -> LoadReport
    {
        // Writing the rows and building the index take two threads of their own meanwhile (on
        // two cores, Natural Earth's import took 203-229 ms with one thread left to the checks,
        // 221-260 ms with two; the time zones 2.2 s against 2.8 s). The writer, once the rows
        // are written, checks polygons too rather than wait idle (0.92 of the time without).
        let writesEarly = store.file != nil && invalidPolygons.keepsFeaturesAsRead
        var loader = LayerLoader(
            invalidPolygons: invalidPolygons,
            validationThreads: writesEarly ? max(1, validationThreads - 2) : validationThreads)
        let helpers = PolygonValidation.Helpers()
        if writesEarly { loader.checkHelpers = helpers }
        // Whenever the checks cannot change the features, a GeoPackage import writes the rows on
        // a second thread and builds the index on a third while the polygons are checked; the
        // rows' transaction waits for the checks' verdict (helping with them) to commit or roll
        // back.
        var early: Alongside<Result<Void, LayerError>>?
        let verdict = Verdict()
        let startWriting: (([Feature], String) -> Void)? =
            store.file.map { file in
                { features, sourceCRS in
                    guard !features.isEmpty else { return }
                    let input = StoredLayerInput(
                        name: spec.name, title: spec.title, features: Self.uniformAreas(features), source: url.path,
                        sourceCRS: sourceCRS, approximate: spec.approximate?.en)
                    let index = writesIndex ? StoredIndex.Building.start(input.features) : nil
                    early = Alongside {
                        Result { () throws(LayerError) in
                            try Self.write(input, into: file, index: { index?.input }, notesMayWait: true) {
                                () throws(StoreError) in
                                helpers.help()
                                guard let notes = verdict.wait() else {
                                    throw StoreError(.badLayer, "the layer's checks failed")
                                }
                                return notes
                            }
                        }
                    }
                }
            }
        let prepared: PreparedLayer
        do {
            prepared = try loader.prepare(spec, from: url, whileChecking: startWriting)
        } catch {
            // The rows written meanwhile are rolled back.
            verdict.post(nil)
            _ = early?.result()
            throw error
        }
        let report = prepared.report
        guard let early else {
            try write(spec, prepared: prepared, source: url, into: store)
            Self.release(consume prepared)
            return report
        }
        verdict.post(prepared.notes)
        try early.result().get()
        Self.release(consume prepared)
        return report
    }

    /// Lets `prepared` go on a thread of its own: freeing a large layer's features (2.4 ms for
    /// Natural Earth's) need not hold up the caller, who has the report. The only reference
    /// left is the one that thread releases.
    private static func release(_ prepared: consuming PreparedLayer) {
        let owner = Unmanaged.passRetained(Owner(consume prepared))
        _ = Alongside { owner.release() }
    }

    private final class Owner: Sendable {
        let prepared: PreparedLayer
        init(_ prepared: consuming PreparedLayer) { self.prepared = prepared }
    }

    /// The write step of an import: `prepared` (read from `source`) becomes layer `spec.name`
    /// of `store`, replacing any layer of that name in one transaction (with its index, in a
    /// GeoPackage).
    package func write(
        _ spec: LayerSpec, prepared: PreparedLayer, source url: URL, into store: StoreAddress
    ) throws(LayerError) {
        guard !prepared.features.isEmpty else { throw .emptyLayer(path: url.path) }
        let input = StoredLayerInput(
            name: spec.name, title: spec.title, features: Self.uniformAreas(prepared.features), source: url.path,
            sourceCRS: prepared.sourceCRS, approximate: spec.approximate?.en, notes: prepared.notes)
        switch store {
        case .geoPackage(let file):
            // The index is built on a second thread while SQLite writes the rows on this one.
            let features = input.features
            let index = writesIndex ? StoredIndex.Building.start(features) : nil
            try Self.write(input, into: file, index: { index?.input }) { input.notes }
        case .shared(let backend):
            do {
                try backend.connectLayers().replaceLayer(input)
            } catch let error as SharedStoreError {
                throw .store(error)
            } catch {
                throw .storeWriteFailed(path: store.description, reason: "\(error)")
            }
        }
    }

    /// Writes `input` into the GeoPackage `file` (created if missing) with its index, in one
    /// transaction (see ``GeoPackage/replaceLayer(_:notes:notesMayWait:index:)``).
    private static func write(
        _ input: StoredLayerInput, into file: URL, index: () -> GeoPackage.LayerIndexInput?,
        notesMayWait: Bool = false, notes: () throws(StoreError) -> [String]
    ) throws(LayerError) {
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            // A new store's tables go in with the layer: one commit, not two.
            let package = try GeoPackage.open(at: file.path, create: true, schemaWithFirstLayer: true)
            try package.replaceLayer(input, notes: notes, notesMayWait: notesMayWait) {
                index()
            }
        } catch {
            throw .storeWriteFailed(path: file.path, reason: "\(error)")
        }
    }

    /// The outcome of an import's checks, handed from the thread that checks to the one that
    /// writes: the layer's notes, or nil when the layer is refused.
    private final class Verdict: @unchecked Sendable {
        private let posted = DispatchSemaphore(value: 0)
        /// Written once before `posted` is signalled; read after waiting for it.
        private var notes: [String]?

        func post(_ notes: [String]?) {
            self.notes = notes
            posted.signal()
        }

        func wait() -> [String]? {
            posted.wait()
            return notes
        }
    }

    /// A layer that mixes Polygon and MultiPolygon features is stored as all MultiPolygon, so
    /// the GeoPackage declares one geometry type (GDAL and QGIS then know what to expect).
    static func uniformAreas(_ features: [Feature]) -> [Feature] {
        let types = Set(features.map(\.geometry.typeName))
        guard types == ["Polygon", "MultiPolygon"] else { return features }
        return features.map { f in
            guard case .polygon(let p) = f.geometry else { return f }
            var g = f
            g.geometry = .multiPolygon(MultiPolygon([p]))
            return g
        }
    }
}
