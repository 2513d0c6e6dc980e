import ArgumentParser
import Foundation
import GeoqLayers

extension LayerLoader.InvalidPolygonPolicy: ExpressibleByArgument {}

/// `geoq import SOURCE --layer NAME`: write a data file into the store as a layer.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a data file into the store as a layer (replacing a layer of that name).",
        discussion: """
            Formats: GeoJSON (.json, .geojson), KML, ESRI Shapefile (.shp with .shx/.dbf/.prj), \
            opendatasoft CSV exports (.csv), Fallas Atom/GeoRSS feeds and services XML (.xml). \
            Coordinates are reprojected to WGS84 with PROJ from the CRS given by --crs (which \
            wins), a .prj file or a GeoJSON crs member. Every polygon is checked with GEOS; \
            --on-invalid says what to do with an invalid one. The import is one transaction: \
            if it fails, the store is left exactly as it was.

            Names and ids: without --name-field/--id-field they are looked for among the \
            file's attributes, ignoring case (name, nombre, nom, izena, title, label, ...; \
            id, codigo, code, cod, gid, fid, objectid, ...; the README lists them in order); \
            the summary says which were chosen.

            The store is a GeoPackage 1.3 file (QGIS and GDAL open it) or a PostgreSQL/PostGIS \
            database (postgresql://user@host:port/db[?schema=name]; one table per layer with a \
            geometry(…, 4326) column, and every import announced to the replicas): --store, \
            else $GEOQ_STORE, else data/geoq.gpkg in the repository.

            Examples:
              geoq import \\
                ../shared/data/pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json \\
                --layer barrios --name-field NOMBRE
              geoq import \\
                ../shared/data/pamplona/shp_epsg25830/MOVI_Pol_ZonaAccesoRestr.shp \\
                --layer zac --id-field ID
              geoq import pv.json --layer pv --crs EPSG:25830
              geoq import mine.geojson --layer my-blocks   # its name and id found
              geoq import --all                  # every layer of data/layers.json
              GEOQ_OPTIONAL_LAYERS=timezones geoq import --all  # and time zones
            """)

    @Argument(help: "The file to import.")
    var source: String?

    @Option(name: .long, help: "The layer name to write (lower-case letters, digits, '-' and '_').")
    var layer: String?

    @Option(name: .long, help: "The source's CRS when the file does not say or says wrong, e.g. EPSG:25830.")
    var crs: String?

    @Option(
        name: .customLong("name-field"),
        help: "Attribute holding each feature's display name (default: one found, e.g. name, nombre).")
    var nameField: String?

    @Option(
        name: .customLong("id-field"),
        help:
            "Attribute holding each feature's id (default: one found, e.g. id, codigo; else the format's id, or the row number)."
    )
    var idField: String?

    @Option(
        name: .customLong("on-invalid"),
        help: "What to do with a polygon GEOS finds invalid: fail, repair, skip or keep.")
    var onInvalid: LayerLoader.InvalidPolygonPolicy = .fail

    @Flag(
        name: .customLong("skip-empty"),
        help: "Leave out rows or records without geometry (counted as skipped) instead of refusing the file.")
    var skipEmpty = false

    @Option(name: .long, help: "The layer's title (default: its name).")
    var title: String?

    @Option(name: .long, help: StoreHelp.write)
    var store: String?

    @Flag(name: .long, help: "Import every layer of the catalog (data/layers.json) instead of one file.")
    var all = false

    @Option(name: .long, help: "Output format: text or json.")
    var format: OutputFormat = .text

    func validate() throws {
        if all {
            guard source == nil, layer == nil, crs == nil, nameField == nil, idField == nil, title == nil else {
                throw ValidationError(
                    "--all imports the catalog's layers; give no SOURCE, --layer, --crs, --name-field, --id-field or --title with it"
                )
            }
        } else {
            guard source != nil else { throw ValidationError("missing SOURCE: the file to import (or --all)") }
            guard let layer else { throw ValidationError("missing --layer NAME: the layer to write") }
            guard !layer.isEmpty,
                layer.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" })
            else {
                throw ValidationError("layer name '\(layer)' may hold only lower-case letters a-z, digits, '-' and '_'")
            }
        }
    }

    func run() throws {
        let locations: DataLocations
        let jobs: [(spec: LayerSpec, url: URL)]
        // Optional layers (data fetched separately) whose file is not there: --all leaves them out.
        var notFetched: [LayerError] = []
        let target: StoreAddress
        do throws(LayerError) {
            locations = try DataLocations.resolveForCommand()
            target = try StoreAddress.option(store) ?? locations.store
            if all {
                let catalog = try locations.loadCatalog()
                let listed = catalog.listedLayers()
                let (present, absent) = (
                    listed.filter { $0.fetch == nil || catalog.hasSource(of: $0) },
                    listed.filter { $0.fetch != nil && !catalog.hasSource(of: $0) }
                )
                jobs = present.map { ($0, catalog.sourceURL(of: $0)) }
                notFetched = absent.map {
                    .sourceNotFetched(layer: $0.name, path: catalog.sourceURL(of: $0).path, fetch: $0.fetch ?? "")
                }
            } else {
                let url = URL(fileURLWithPath: source!)
                if let reason = Self.whyUnreadable(url.path) {
                    throw LayerError.fileMissing(path: url.path, reason: reason)
                }
                let spec = LayerSpec(
                    name: layer!, title: title ?? layer!, source: url.path, crs: crs, forceCRS: crs != nil ? true : nil,
                    idField: idField, nameField: nameField, skipEmptyGeometry: skipEmpty ? true : nil,
                    detectFields: true)
                jobs = [(spec, url)]
            }
        } catch {
            throw fail(error)
        }
        let progress = Progress()
        var out = StandardOutput()
        var reports: [[String: Any]] = []
        for skipped in notFetched {
            var stderr = StandardError()
            stderr.write("geoq: note: not imported: \(skipped.description)\n")
        }
        for (i, job) in jobs.enumerated() {
            progress.note("importing \(job.spec.name) (\(i + 1)/\(jobs.count)) from \(job.url.lastPathComponent)")
            let report: LoadReport
            do {
                report = try LayerImporter(invalidPolygons: onInvalid).importLayer(
                    job.spec, from: job.url, into: target)
            } catch {
                throw fail(error)
            }
            switch format {
            case .text:
                out.write(
                    "imported \(job.spec.name) into \(target): read \(report.read), written \(report.written), "
                        + "repaired \(report.repaired), skipped \(report.skipped)\n")
                if let naming = report.naming { out.write(Self.text(naming)) }
                for problem in report.problems { out.write("  \(problem.description)\n") }
                for note in report.notes { out.write("  note: \(note)\n") }
            case .json, .geojson:
                let data = (try? JSONEncoder().encode(report)) ?? Data("{}".utf8)
                var object = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
                object["layer"] = job.spec.name
                object["store"] = target.description
                reports.append(object)
            }
        }
        if format != .text { out.write(AnswerRenderer.serialise(["imports": reports], pretty: true) + "\n") }
    }

    /// Which attributes name and identify the features, in two lines (and what was passed over).
    static func text(_ naming: LoadReport.Naming) -> String {
        func line(_ what: String, _ field: String?, _ chosen: LoadReport.Naming.Choice, otherwise: String) -> String {
            guard let field else { return "  \(what): \(otherwise)\n" }
            switch chosen {
            case .option: return "  \(what): attribute '\(field)' (as asked)\n"
            case .detected, .format: return "  \(what): attribute '\(field)' (found in the file)\n"
            }
        }
        var text =
            line("names", naming.nameField, naming.nameChosen, otherwise: "no name attribute found")
            + line("ids", naming.idField, naming.idChosen, otherwise: "the format's own, else the feature's position")
        for note in naming.notes { text += "  \(note)\n" }
        let attributes = naming.attributes.isEmpty ? "none" : naming.attributes.joined(separator: ", ")
        text += "  attributes: \(attributes); \(naming.hint)\n"
        return text
    }

    /// Why the user's file cannot be imported before it is even opened, or nil if it can be read.
    static func whyUnreadable(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
        if isDirectory.boolValue { return "is a directory, not a file" }
        return FileManager.default.isReadableFile(atPath: path) ? nil : "cannot be read (permission denied)"
    }

    private func fail(_ error: LayerError) -> ExitCode {
        ExitStatus.report(error, format: format)
        return ExitCode(ExitStatus.of(error))
    }
}
