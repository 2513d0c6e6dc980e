import ArgumentParser
import Foundation
import GeoqLayers
import GeoqStore

/// `geoq layers`: the layers in the store, and the catalog's layers not imported yet.
struct ListLayers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layers",
        abstract: "List the layers geoq can answer from.",
        discussion: """
            Layers in the store (a GeoPackage or PostgreSQL; what `geoq import` wrote) with their geometry type, \
            feature count and source; then the catalog's (data/layers.json) layers not imported \
            yet, which queries read from their source files. Approximate layers are marked. \
            Optional layers (large data fetched separately, such as timezones) are listed only \
            when GEOQ_OPTIONAL_LAYERS names them (e.g. GEOQ_OPTIONAL_LAYERS=timezones).

            Examples:
              geoq layers
              geoq layers --format json
              geoq layers --store other.gpkg
              geoq layers --store postgresql://geoq@127.0.0.1:5432/geoq
            """)

    @Option(name: .long, help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(name: .long, help: StoreHelp.read)
    var store: String?

    func run() throws {
        let library = try LayerLibrary.openForCommand(store: store, format: format)
        let stored = library.storedLayers
        let pending = library.catalog.listedLayers().filter { spec in !stored.contains { $0.name == spec.name } }
        var out = StandardOutput()
        switch format {
        case .text:
            for info in stored {
                out.write(
                    "\(info.name)\t\(info.geometryType)\t\(info.featureCount) features\t\(info.title)"
                        + "\(info.approximate != nil ? " [approximate]" : "")\n")
            }
            for spec in pending {
                let exists = FileManager.default.fileExists(atPath: library.catalog.sourceURL(of: spec).path)
                let missing = spec.fetch.map { " [data not fetched: run \($0)]" } ?? " [data file missing]"
                out.write(
                    "\(spec.name)\t(not imported)\t\t\(spec.title)\(spec.approximate != nil ? " [approximate]" : "")"
                        + "\(exists ? "" : missing)\n")
            }
        case .json, .geojson:
            var items: [[String: Any]] = stored.map { Info.jsonObject($0) }
            items += pending.map { spec in
                [
                    "name": spec.name, "title": spec.title, "imported": false,
                    "source": library.catalog.sourceURL(of: spec).path, "approximate": spec.approximate != nil,
                ]
            }
            out.write(
                AnswerRenderer.serialise(["store": library.store.description, "layers": items], pretty: true) + "\n")
        }
    }
}
