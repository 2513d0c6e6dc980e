import ArgumentParser
import Foundation
import GeoqCore
import GeoqGzip
import GeoqLayers
import GeoqQuery
import GeoqTiles

/// `geoq tiles`: vector tiles of a layer, for maps served without geoq.
struct TilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Vector tiles of a layer: export them as one PMTiles archive.",
        subcommands: [TilesExport.self])
}

/// `geoq tiles export LAYER --output FILE.pmtiles`: the layer's tiles as the service cuts them
/// (``LayerTiler``), every zoom asked, in one PMTiles v3 archive a static host or CDN serves.
struct TilesExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a layer's vector tiles (Mapbox Vector Tile 2.1) into a PMTiles v3 archive.",
        discussion: """
            The tiles are those `geoq serve` answers at /ogc/collections/LAYER/tiles/WebMercatorQuad/{z}/{y}/{x}: \
            the features meeting each tile and its buffer, clipped, simplified below zoom 15, at most \
            500 KB each. Tiles where the layer has nothing are left out. Tiles and directories are \
            gzip-compressed; the metadata is TileJSON's (name, description, vector_layers). The \
            archive is written beside FILE and renamed over it at the end: an interrupted export \
            leaves FILE as it was.

            Examples:
              geoq tiles export valencia-barrios --max-zoom 16 --output barrios.pmtiles
              geoq tiles export fallas --min-zoom 10 --max-zoom 18 --output fallas.pmtiles --format json
            """)

    @Argument(help: "The layer to cut (polygons or points).")
    var layer: String

    @Option(name: .long, help: "The first zoom level written (0 to 22).")
    var minZoom = 0

    @Option(name: .long, help: "The last zoom level written (0 to 22).")
    var maxZoom = 14

    @Option(name: .shortAndLong, help: "The archive to write (FILE.pmtiles).")
    var output: String

    @Option(name: .long, help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(name: .long, help: StoreHelp.read)
    var store: String?

    func validate() throws {
        guard (0...22).contains(minZoom), (0...22).contains(maxZoom) else {
            throw ValidationError("--min-zoom and --max-zoom must be 0 to 22 (got \(minZoom) and \(maxZoom))")
        }
        guard minZoom <= maxZoom else {
            throw ValidationError("--min-zoom (\(minZoom)) must not be above --max-zoom (\(maxZoom))")
        }
    }

    func run() throws {
        let library = try LayerLibrary.openForCommand(store: store, format: format)
        let features = try ExitStatus.reporting(format: format) { () throws(LayerError) in
            try library.features(of: layer)
        }
        let stored = library.storedLayers.first { $0.name == layer }
        let spec = library.catalog.layers.first { $0.name == layer }
        let title = stored?.title ?? spec?.title ?? layer
        let approximation = stored?.approximate ?? spec?.approximate?.en
        let tiler = LayerTiler(name: layer, features: features)
        let progress = Progress()
        var writer = PMTilesWriter(
            tileType: .mvt, tileCompression: .gzip,
            internalCompression: PMTilesInternalCompression(code: .gzip) { Gzip.compress($0) })
        var report = Report(layer: layer, output: output, minZoom: minZoom, maxZoom: maxZoom)
        do {
            for zoom in minZoom...maxZoom {
                guard let tiles = try tiler.tiles(zoom: zoom) else { break }
                for tile in tiles {
                    let encoded = try tiler.tile(tile)
                    report.featuresTooSmall += encoded.featuresTooSmall
                    report.featuresOverSizeCap += encoded.featuresOverSizeCap
                    guard encoded.featuresKept > 0 else { continue }
                    guard let compressed = Gzip.compress(encoded.bytes) else { throw Failure("gzip failed") }
                    try writer.add(z: tile.z, x: tile.x, y: tile.y, bytes: compressed)
                    report.tiles += 1
                }
                progress.note("zoom \(zoom): \(report.tiles) tiles so far")
            }
            guard report.tiles > 0 else {
                throw Failure(
                    "layer '\(layer)' has no feature large enough to draw at zooms \(minZoom) to \(maxZoom)",
                    status: ExitStatus.usage)
            }
            let extent = tiler.extent
            let metadata = try Self.metadata(
                layer: layer, title: title, approximation: approximation, tiler: tiler, zooms: minZoom...maxZoom)
            report.bytes = try Self.writeAtomically(to: URL(fileURLWithPath: output)) { sink in
                try writer.write(
                    metadata: metadata,
                    extent: PMTilesExtent(
                        west: max(extent.minX, -180), south: max(extent.minY, -WebMercator.maximumLatitude),
                        east: min(extent.maxX, 180), north: min(extent.maxY, WebMercator.maximumLatitude),
                        centerZoom: minZoom),
                    to: sink)
            }
        } catch let failure as Failure {
            throw Self.report(failure, format: format)
        } catch {
            throw Self.report(Failure("\(error)"), format: format)
        }
        var out = StandardOutput()
        switch format {
        case .text:
            out.write(
                "\(report.output): \(report.tiles) tiles of \(layer), zooms \(minZoom)-\(maxZoom), \(report.bytes) bytes"
                    + (report.featuresOverSizeCap > 0
                        ? " (\(report.featuresOverSizeCap) features left out by the 500 KB cap)" : "") + "\n")
        case .json, .geojson:
            out.write(AnswerRenderer.serialise(report.jsonObject, pretty: true) + "\n")
        }
    }

    /// Why the export stopped, and the exit status that says so (74: the archive could not be
    /// made or written).
    struct Failure: Error {
        var message: String
        var status: Int32
        init(_ message: String, status: Int32 = ExitStatus.ioError) {
            self.message = message
            self.status = status
        }
    }

    struct Report {
        var layer: String
        var output: String
        var minZoom: Int
        var maxZoom: Int
        var tiles = 0
        var bytes = 0
        var featuresTooSmall = 0
        var featuresOverSizeCap = 0

        var jsonObject: [String: Any] {
            [
                "layer": layer, "output": output, "minZoom": minZoom, "maxZoom": maxZoom, "tiles": tiles,
                "bytes": bytes, "featuresTooSmall": featuresTooSmall, "featuresOverSizeCap": featuresOverSizeCap,
            ]
        }
    }

    /// The layer's TileJSON (TileJSON), as PMTiles readers expect the metadata.
    static func metadata(
        layer: String, title: String, approximation: String?, tiler: LayerTiler, zooms: ClosedRange<Int>
    ) throws -> [UInt8] {
        let document = TileJSON(
            name: layer, description: title + (approximation.map { ". Approximate: \($0)" } ?? ""), tiles: nil,
            zooms: zooms, extent: tiler.extent,
            attributes: LayerAttribute.describe(tiler.features).map { ($0.name, $0.type) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(document))
    }

    /// Writes what `body` hands its sink into a file beside `url`, then renames it over `url`;
    /// returns the bytes written. On failure the partial file is removed and `url` is untouched.
    static func writeAtomically(to url: URL, _ body: (([UInt8]) throws -> Void) throws -> Void) throws -> Int {
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw Failure("cannot write \(partial.path)")
        }
        var written = 0
        do {
            let handle = try FileHandle(forWritingTo: partial)
            defer { try? handle.close() }
            try body { chunk in
                try handle.write(contentsOf: chunk)
                written += chunk.count
            }
            try handle.synchronize()
            // rename(2) replaces the file in one step: a reader sees the old archive or the new.
            guard rename(partial.path, url.path) == 0 else {
                throw Failure("cannot rename \(partial.path) to \(url.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw Failure("cannot write \(url.path): \(error)")
        }
        return written
    }

    /// `failure` reported on standard error (a JSON problem with `--format json`); the exit.
    static func report(_ failure: Failure, format: OutputFormat) -> ExitCode {
        var stderr = StandardError()
        stderr.write(
            format == .text
                ? "geoq: error: \(failure.message)\n"
                : AnswerRenderer.errorJSON(code: "tiles-failed", message: failure.message) + "\n")
        return ExitCode(failure.status)
    }
}
