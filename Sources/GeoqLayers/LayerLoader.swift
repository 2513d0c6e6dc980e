import Foundation
import GeoqCore
import GeoqFormats
import GeoqGEOS
import GeoqPROJ
import GeoqQuery

/// Builds a ``Layer`` from its ``LayerSpec``: read the file, reproject to WGS84, select and
/// rename features, merge rows that repeat an id, check every polygon with GEOS, index.
///
/// Each call creates its own GEOS and PROJ contexts, so loaders may run on any thread.
public struct LayerLoader: Sendable {
    /// What to do with a polygon GEOS finds invalid (self-intersecting ring, hole outside
    /// its shell, ...). Every case is counted in the layer's ``LoadReport``.
    public enum InvalidPolygonPolicy: String, Sendable, CaseIterable {
        /// Refuse the layer, naming the feature and GEOS's reason.
        case fail
        /// Replace the polygon by GEOS's valid polygonal version of it (the "structure"
        /// method of GEOSMakeValid); a polygon that collapses to nothing is skipped.
        case repair
        /// Leave the feature out.
        case skip
        /// Keep the feature as it is (answers for it follow the even–odd rule).
        case keep

        /// Whether the layer, if accepted, holds its features exactly as read (`fail` refuses
        /// it whole, `keep` keeps every feature): they can be written and indexed before the
        /// check ends.
        var keepsFeaturesAsRead: Bool { self == .fail || self == .keep }
    }

    public var invalidPolygons: InvalidPolygonPolicy
    /// Threads that check polygons with GEOS at once (each feature on one thread).
    public var validationThreads: Int
    /// Where other threads may join the polygon checks (an import's writer, once it waits).
    var checkHelpers: PolygonValidation.Helpers?

    public init(invalidPolygons: InvalidPolygonPolicy = .fail, validationThreads: Int = LayerLoader.processorCount) {
        self.invalidPolygons = invalidPolygons
        self.validationThreads = max(1, validationThreads)
    }

    /// The machine's processors, at most 8: the default number of validation threads.
    public static var processorCount: Int { min(8, ProcessInfo.processInfo.activeProcessorCount) }

    /// Loads the catalog layer `name`.
    public func load(_ name: String, from catalog: LayerCatalog) throws(LayerError) -> Layer {
        let spec = try catalog.spec(named: name)
        return try load(spec, from: catalog.sourceURL(of: spec))
    }

    /// Loads `spec` from the file at `url` as a polygon layer ready for point queries.
    public func load(_ spec: LayerSpec, from url: URL) throws(LayerError) -> Layer {
        let prepared = try prepare(spec, from: url)
        guard !prepared.features.isEmpty else { throw .emptyLayer(path: url.path) }
        for (i, f) in prepared.features.enumerated() where f.geometry.areal == nil {
            throw .notAreal(path: url.path, feature: Self.describe(f, at: i), geometryType: f.geometry.typeName)
        }
        let layer = Layer(
            name: spec.name, title: spec.title, features: prepared.features, approximation: spec.approximate,
            source: url.path, sourceCRS: prepared.sourceCRS, notes: prepared.notes)
        return spec.timeZoneField.map { layer.marking(timeZoneField: $0) } ?? layer
    }

    /// The features of any geometry type that `spec` describes, in WGS84: read, reprojected,
    /// given their ids, selected, checked (polygons, by the policy) and merged where rows
    /// repeat an id. What `load` indexes and what an import stores.
    public func prepare(_ spec: LayerSpec, from url: URL) throws(LayerError) -> PreparedLayer {
        try prepare(spec, from: url, whileChecking: nil)
    }

    /// ``prepare(_:from:)``, handing the features it will return and their source CRS to
    /// `whileChecking` before it checks their validity, when the policy cannot change them
    /// (`fail` refuses the layer, `keep` keeps every feature): an import starts writing them and
    /// building their index meanwhile.
    package func prepare(
        _ spec: LayerSpec, from url: URL, whileChecking: (([Feature], _ sourceCRS: String) -> Void)?
    ) throws(LayerError) -> PreparedLayer {
        let path = url.path
        guard FileManager.default.isReadableFile(atPath: path) else {
            if let fetch = spec.fetch { throw .sourceNotFetched(layer: spec.name, path: path, fetch: fetch) }
            throw .sourceMissing(path: path)
        }
        let collection: FeatureCollection
        do {
            // With a template the id column may have gaps, so the reader must not insist on it.
            let idField = spec.idTemplate == nil && spec.idFallback == nil ? spec.idField : nil
            var options = ReadOptions(idField: idField, nameField: spec.nameField)
            options.skipFeaturesWithoutGeometry = spec.skipEmptyGeometry ?? false
            collection = try readFeatures(at: url, options: options)
        } catch {
            let hint = error.code == .missingGeometry ? " (to leave such rows out: geoq import --skip-empty)" : ""
            throw .sourceMalformed(path: path, message: error.description + hint)
        }
        var (features, sourceCRS) = try reprojected(collection, spec: spec, path: path)
        var notes = collection.warnings
        var naming: LoadReport.Naming?
        if spec.detectFields == true {
            naming = AttributeDetection.apply(to: &features, nameField: spec.nameField, idField: spec.idField)
        }
        if let template = spec.idTemplate {
            var templateNotes: [String]
            (features, templateNotes) = try IDTemplate(template).apply(to: features, checking: spec.idField, path: path)
            notes += templateNotes
        } else if let fallback = spec.idFallback, let idField = spec.idField {
            var fallbackNotes: [String]
            (features, fallbackNotes) = try IDTemplate(fallback).fillGaps(in: features, idField: idField, path: path)
            notes += fallbackNotes
        }
        if let fallback = spec.nameFallback {
            let template = IDTemplate(fallback)
            for i in features.indices where features[i].name?.isEmpty ?? true {
                features[i].name = try? template.id(of: features[i])
            }
        }
        let selected = try select(features, spec: spec, path: path)
        // Rows the reader skipped for having no geometry are counted as read and skipped.
        let emptySkipped = collection.warnings.filter { $0.hasSuffix("; skipped") }.count
        var report = LoadReport(read: collection.features.count + emptySkipped)
        report.skipped = emptySkipped
        report.naming = naming
        var early: ([Feature], [String])?
        if let whileChecking, invalidPolygons.keepsFeaturesAsRead {
            early = Self.mergeRepeatedIDs(selected)
            whileChecking(early!.0, sourceCRS)
        }
        let valid = try validate(selected, path: path, report: &report)
        let (merged, mergeNotes) = early ?? Self.mergeRepeatedIDs(valid)
        notes += mergeNotes
        report.written = merged.count
        report.notes = notes
        notes += report.problems.filter { $0.action == .kept }.map(\.description)
        return PreparedLayer(features: merged, sourceCRS: sourceCRS, notes: notes, report: report)
    }

    /// The features in WGS84, and the name of the CRS they came from. The file's own CRS
    /// wins over the catalog's `crs` unless `forceCRS` is set.
    func reprojected(
        _ collection: FeatureCollection, spec: LayerSpec, path: String
    ) throws(LayerError) -> ([Feature], String) {
        var override: CRSDeclaration?
        if let text = spec.crs {
            guard let parsed = CRSDeclaration(name: text) else {
                throw .reprojectionFailed(path: path, crs: text, reason: "not a CRS name geoq understands")
            }
            override = parsed
        }
        let declared = spec.forceCRS == true ? override : (collection.crs ?? override)
        guard let crs = declared else {
            if let sample = Self.firstNonDegreeCoordinate(collection.features) {
                throw .crsMissing(path: path, sample: sample)
            }
            return (collection.features, "EPSG:4326")
        }
        if crs.isWGS84Geographic { return (collection.features, "EPSG:4326") }
        do {
            let transformer = try CoordinateTransformer(context: PROJContext(), from: crs.projString)
            let features = try collection.features.map { f in
                var f = f
                f.geometry = try transformer.transform(f.geometry)
                return f
            }
            return (features, crs.displayName)
        } catch {
            throw .reprojectionFailed(path: path, crs: crs.displayName, reason: "\(error)")
        }
    }

    /// Applies `spec.select`: keep the listed features, with the catalog's ids and names.
    func select(_ features: [Feature], spec: LayerSpec, path: String) throws(LayerError) -> [Feature] {
        guard let selection = spec.select else { return features }
        var result: [Feature] = []
        for entry in selection.features {
            guard var f = features.first(where: { $0.properties[selection.field]?.text == entry.value }) else {
                throw .sourceMalformed(
                    path: path,
                    message:
                        "\(path): layer '\(spec.name)' selects the feature whose \(selection.field) is '\(entry.value)', but there is none"
                )
            }
            f.id = entry.id
            f.name = entry.name
            result.append(f)
        }
        return result
    }

    /// Checks each polygon with GEOS and applies the policy; returns the features to keep.
    func validate(_ features: [Feature], path: String, report: inout LoadReport) throws(LayerError) -> [Feature] {
        let verdicts = PolygonValidation.verdicts(of: features, threads: validationThreads, helpers: checkHelpers)
        let context = GEOSContext()
        var kept: [Feature] = []
        kept.reserveCapacity(features.count)
        for (i, f) in features.enumerated() {
            let reason: String
            let location: Point?
            switch verdicts[i] {
            case .notAreal, .valid:
                kept.append(f)
                continue
            case .unbuildable(let message):
                throw .invalidPolygon(path: path, feature: Self.describe(f, at: i), reason: message, location: nil)
            case .invalid(let why, let position):
                (reason, location) = (why, position)
            }
            let at = location.map { "(lon \($0.x), lat \($0.y))" }
            let what = reason + (at.map { " at \($0)" } ?? "")
            func problem(_ action: LoadReport.Action, _ detail: String = what) -> LoadReport.Problem {
                LoadReport.Problem(feature: i + 1, id: f.id, name: f.name, reason: detail, action: action)
            }
            switch invalidPolygons {
            case .fail:
                throw .invalidPolygon(path: path, feature: Self.describe(f, at: i), reason: reason, location: at)
            case .keep:
                report.problems.append(problem(.kept))
                kept.append(f)
            case .skip:
                report.problems.append(problem(.skipped))
                report.skipped += 1
            case .repair:
                let geometry = try? context.makeGeometry(f.geometry)
                let repaired = geometry.flatMap { try? context.makeValidPolygonal($0).toCore().areal }
                if let repaired, !repaired.polygons.isEmpty {
                    var fixed = f
                    fixed.geometry =
                        repaired.polygons.count == 1 ? .polygon(repaired.polygons[0]) : .multiPolygon(repaired)
                    kept.append(fixed)
                    report.problems.append(problem(.repaired))
                    report.repaired += 1
                } else {
                    report.problems.append(problem(.skipped, what + "; repair left no area"))
                    report.skipped += 1
                }
            }
        }
        return kept
    }

    /// Rows that share an id and name become one feature made of all their distinct parts, so
    /// no answer names the same feature twice: Valencia's census sections 1508 and 1536 are
    /// each published twice with identical polygons (kept once); 1701 comes in four parts.
    ///
    /// Rows that share an id but name different things are different features, and none is
    /// dropped: the later ones get the id with a suffix (`175-2`), and the note says so
    /// (Valencia gives RAFALELL-VISTABELLA and MAHUELLA-TAULADELLA both the code 175).
    static func mergeRepeatedIDs(_ features: [Feature]) -> ([Feature], [String]) {
        var order: [String] = []
        var byID: [String: Feature] = [:]
        var rows: [String: Int] = [:]
        var copies: [String: Int] = [:]
        var renamed: [String] = []
        for var f in features {
            if let existing = byID[f.id],
                existing.name != f.name || existing.geometry.areal == nil || f.geometry.areal == nil
            {
                let original = f.id
                var n = 2
                // A later row of the same renamed feature (same name, areal) joins it.
                while let other = byID["\(original)-\(n)"],
                    other.name != f.name || other.geometry.areal == nil || f.geometry.areal == nil
                {
                    n += 1
                }
                f.id = "\(original)-\(n)"
                if byID[f.id] == nil {
                    renamed.append(
                        "\(original) is given to both \(existing.name ?? "?") and \(f.name ?? "?"); the second is kept as id \(f.id)"
                    )
                }
            }
            rows[f.id, default: 0] += 1
            guard var existing = byID[f.id] else {
                order.append(f.id)
                byID[f.id] = f
                continue
            }
            var parts = existing.geometry.areal?.polygons ?? []
            for part in f.geometry.areal?.polygons ?? [] {
                if parts.contains(part) { copies[f.id, default: 0] += 1 } else { parts.append(part) }
            }
            existing.geometry = parts.count == 1 ? .polygon(parts[0]) : .multiPolygon(MultiPolygon(parts))
            byID[f.id] = existing
        }
        var notes =
            renamed.isEmpty
            ? [] : ["rows naming different features with one id were kept apart: " + renamed.joined(separator: "; ")]
        let repeated = order.filter { rows[$0]! > 1 }
        if !repeated.isEmpty {
            let list = repeated.map { id in
                let n = copies[id] ?? 0
                return
                    "\(id) (\(rows[id]!) rows\(n > 0 ? ", \(n) of them an identical copy, kept once" : ", merged into one feature of \(rows[id]!) parts"))"
            }.joined(separator: "; ")
            notes.append(
                "\(features.count) rows, \(order.count) distinct features; rows sharing an id became one feature: \(list)"
            )
        }
        return (order.map { byID[$0]! }, notes)
    }

    static func describe(_ f: Feature, at index: Int) -> String {
        "feature #\(index + 1) (id \(f.id)\(f.name.map { ", \($0)" } ?? ""))"
    }

    static func firstNonDegreeCoordinate(_ features: [Feature]) -> String? {
        // Read in place: mapping the points would copy every geometry of a large layer.
        func first(_ points: some Collection<Point>) -> Point? { points.first { abs($0.x) > 180 || abs($0.y) > 90 } }
        func first(_ polygon: Polygon) -> Point? { polygon.rings.lazy.compactMap { first($0.points) }.first }
        for f in features {
            let found: Point?
            switch f.geometry {
            case .point(let p): found = first([p])
            case .multiPoint(let ps), .lineString(let ps): found = first(ps)
            case .multiLineString(let ls): found = ls.lazy.compactMap { first($0) }.first
            case .polygon(let p): found = first(p)
            case .multiPolygon(let mp): found = mp.polygons.lazy.compactMap { first($0) }.first
            }
            if let p = found { return "x \(p.x), y \(p.y) (feature id \(f.id))" }
        }
        return nil
    }
}
