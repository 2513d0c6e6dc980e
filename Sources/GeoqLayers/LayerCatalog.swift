import Foundation

/// The named layers geoq knows, read from `data/layers.json`, and where their files are.
public struct LayerCatalog: Sendable {
    public let layers: [LayerSpec]
    /// The directory that relative source paths start from.
    public let dataDirectory: URL
    /// The catalog file these specs came from.
    public let file: URL

    /// The name of the layer which-sector uses when none is given.
    public static let defaultLayerName = "pamplona-sectors"

    public init(layers: [LayerSpec], dataDirectory: URL, file: URL) {
        self.layers = layers
        self.dataDirectory = dataDirectory
        self.file = file
    }

    /// Reads the catalog file.
    public static func load(from file: URL, dataDirectory: URL) throws(LayerError) -> LayerCatalog {
        struct Document: Decodable { var layers: [LayerSpec] }
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw .catalogUnreadable(path: file.path, reason: "\(error.localizedDescription)")
        }
        do {
            let doc = try JSONDecoder().decode(Document.self, from: data)
            let names = doc.layers.map(\.name)
            if let repeated = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
                throw LayerError.catalogMalformed(path: file.path, reason: "layer name '\(repeated)' appears twice")
            }
            return LayerCatalog(layers: doc.layers, dataDirectory: dataDirectory, file: file)
        } catch let error as LayerError {
            throw error
        } catch {
            throw .catalogMalformed(path: file.path, reason: describe(decodingError: error))
        }
    }

    /// The spec named `name`, or an error that lists the known names.
    public func spec(named name: String) throws(LayerError) -> LayerSpec {
        guard let spec = layers.first(where: { $0.name == name }) else {
            throw .unknownLayer(name: name, known: layers.map(\.name))
        }
        return spec
    }

    /// The prefix of a source path under ``externalDirectory`` rather than the data directory.
    public static let externalPrefix = "external:"

    /// Where sources named `external:PATH` are: the `external` folder beside the catalog file
    /// (the repository's `data/external` for the default catalog), which holds large data that
    /// is fetched on demand (`tools/fetch-benchmark-data.sh`) and never committed.
    public var externalDirectory: URL {
        file.deletingLastPathComponent().appendingPathComponent("external")
    }

    /// The absolute location of a spec's source file.
    public func sourceURL(of spec: LayerSpec) -> URL {
        if spec.source.hasPrefix(Self.externalPrefix) {
            return externalDirectory.appendingPathComponent(String(spec.source.dropFirst(Self.externalPrefix.count)))
        }
        return spec.source.hasPrefix("/")
            ? URL(fileURLWithPath: spec.source)
            : dataDirectory.appendingPathComponent(spec.source)
    }

    /// The environment variable naming (comma-separated) the optional layers to include in
    /// what goes over every layer: `geoq layers`, `geoq import --all`, the service's start.
    public static let optionalLayersVariable = "GEOQ_OPTIONAL_LAYERS"

    /// The layers that commands over every layer use: all but the optional ones (a `fetch`
    /// entry: large data fetched separately, e.g. the world's time zones) unless named in
    /// `GEOQ_OPTIONAL_LAYERS`. Any layer, optional or not, can still be asked for by name.
    public func listedLayers(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [LayerSpec] {
        let optedIn = Set(
            (environment[Self.optionalLayersVariable] ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            })
        return layers.filter { $0.fetch == nil || optedIn.contains($0.name) }
    }

    /// Whether `spec`'s source is there (a layer whose data is fetched separately may not be).
    public func hasSource(of spec: LayerSpec) -> Bool {
        FileManager.default.isReadableFile(atPath: sourceURL(of: spec).path)
    }
}

/// "layers[2].idField: expected a string" rather than Foundation's debug text.
func describe(decodingError error: Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
            .joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
    switch error {
    case .typeMismatch(let type, let c): return "\(path(c)): expected \(type)"
    case .valueNotFound(let type, let c): return "\(path(c)): missing \(type)"
    case .keyNotFound(let key, let c):
        let at = path(c)
        return "\(at.isEmpty ? "" : at + ": ")missing field '\(key.stringValue)'"
    case .dataCorrupted(let c): return "\(path(c).isEmpty ? "" : path(c) + ": ")\(c.debugDescription)"
    @unknown default: return "\(error)"
    }
}
