import ArgumentParser
import Foundation
import GeoqLayers

/// `geoq layers`: the layers the catalog names and where their data comes from.
struct ListLayers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layers",
        abstract: "List the layers geoq can answer from.",
        discussion: """
            Reads data/layers.json; does not open the data files. Approximate layers are marked.

            Examples:
              geoq layers
              geoq layers --format json
            """)

    @Option(name: .long, help: "Output format: text or json.")
    var format: OutputFormat = .text

    func run() throws {
        let catalog: LayerCatalog
        do { catalog = try DataLocations.resolve().loadCatalog() } catch {
            var stderr = StandardError()
            stderr.write("geoq: error: \(error.description)\n")
            throw ExitCode(ExitStatus.of(error))
        }
        var out = StandardOutput()
        switch format {
        case .text:
            for spec in catalog.layers {
                let exists = FileManager.default.fileExists(atPath: catalog.sourceURL(of: spec).path)
                out.write(
                    "\(spec.name)\t\(spec.title)\(spec.approximate != nil ? " [approximate]" : "")\(exists ? "" : " [data file missing]")\n"
                )
            }
        case .json, .geojson:
            let items: [[String: Any]] = catalog.layers.map { spec in
                [
                    "name": spec.name, "title": spec.title, "source": catalog.sourceURL(of: spec).path,
                    "approximate": spec.approximate != nil,
                    "available": FileManager.default.fileExists(atPath: catalog.sourceURL(of: spec).path),
                ]
            }
            out.write(AnswerRenderer.serialise(["layers": items], pretty: true) + "\n")
        }
    }
}
