import ArgumentParser
import Foundation
import GeoqLayers
import GeoqQuery
import GeoqStore

/// `geoq info LAYER`: what the store knows about one layer.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe a layer of the store: geometry type, features, extent, source, CRS, import time.",
        discussion: """
            Examples:
              geoq info pamplona-sectors
              geoq info valencia-census-sections --format json
            """)

    @Argument(help: "The layer to describe.")
    var layer: String

    @Option(name: .long, help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(name: .long, help: StoreHelp.read)
    var store: String?

    func run() throws {
        let library = try LayerLibrary.openForCommand(store: store, format: format)
        guard let info = library.storedLayers.first(where: { $0.name == layer }) else {
            let inCatalog = library.catalog.layers.contains { $0.name == layer }
            let message =
                "layer '\(layer)' is not in the store \(library.store)"
                + (inCatalog ? "; it is in the catalog: import it with `geoq import --all`" : "")
                + "; stored layers: \(library.storedLayers.map(\.name).joined(separator: ", "))"
            var stderr = StandardError()
            stderr.write(
                format == .text
                    ? "geoq: error: \(message)\n"
                    : AnswerRenderer.errorJSON(code: "unknown-layer", message: message) + "\n")
            throw ExitCode(ExitStatus.usage)
        }
        let attributes = try ExitStatus.reporting(format: format) { () throws(LayerError) in
            LayerAttribute.describe(try library.features(of: layer))
        }
        // A polygon layer is loaded as a query would load it, to say where its index came from.
        let index: IndexOrigin? =
            library.polygonLayerNames.contains(layer) && (try? library.layer(named: layer)) != nil
            ? library.indexOrigin(of: layer) : nil
        var out = StandardOutput()
        switch format {
        case .text:
            let extent = info.extent.map { e in "lon \(e.minX) … \(e.maxX), lat \(e.minY) … \(e.maxY)" } ?? "(empty)"
            out.write(
                """
                layer:          \(info.name)
                title:          \(info.title)
                geometry type:  \(info.geometryType)
                features:       \(info.featureCount)
                extent:         \(extent)
                source:         \(info.source)
                source CRS:     \(info.sourceCRS)
                imported at:    \(info.importedAt)
                approximate:    \(info.approximate ?? "no")

                """)
            if let index { out.write("index:          \(index)\n") }
            for note in info.notes { out.write("note:           \(note)\n") }
            out.write(Self.text(attributes))
        case .json, .geojson:
            var object = Self.jsonObject(info, attributes: attributes)
            if let index { object["index"] = Self.jsonObject(index) }
            out.write(AnswerRenderer.serialise(object, pretty: true) + "\n")
        }
    }

    static func jsonObject(_ info: LayerInfo, attributes: [LayerAttribute]? = nil) -> [String: Any] {
        let data = (try? JSONEncoder().encode(info)) ?? Data("{}".utf8)
        var object = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        object["imported"] = true
        object["attributes"] = attributes?.map { a -> [String: Any] in
            ["name": a.name, "type": a.type, "example": a.example.map { $0 as Any } ?? NSNull()]
        }
        return object
    }

    /// `{"origin": "stored" | "rebuilt" | "built", "reason": …}` (a reason for "rebuilt" only).
    static func jsonObject(_ index: IndexOrigin) -> [String: Any] {
        switch index {
        case .stored: ["origin": "stored"]
        case .rebuilt(let reason): ["origin": "rebuilt", "reason": reason]
        case .built: ["origin": "built"]
        }
    }

    /// One line per attribute: its name, type and an example value.
    static func text(_ attributes: [LayerAttribute]) -> String {
        guard !attributes.isEmpty else { return "attributes:     none\n" }
        return attributes.enumerated().map { i, a in
            let example = a.example.map { ", e.g. \"\($0)\"" } ?? ", always empty"
            return (i == 0 ? "attributes:     " : "                ") + "\(a.name) (\(a.type)\(example))\n"
        }.joined()
    }
}
