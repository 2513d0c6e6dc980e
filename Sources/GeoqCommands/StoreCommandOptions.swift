import ArgumentParser
import Foundation
import GeoqLayers
import GeoqStore

/// The options of the commands that work on the store as its operator (`geoq hooks`, `geoq
/// keys`, `geoq devices`): where the store is, and text or JSON.
package struct StoreCommandOptions: ParsableArguments {
    /// What these commands print: sentences or JSON (there is nothing to map).
    package enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
        package var output: OutputFormat { self == .text ? .text : .json }
    }

    @Option(name: .long, help: "Output format: text or json.")
    package var format: Format = .text

    @Option(
        name: .long,
        help: "The store: a GeoPackage file or a postgresql:// address (default $GEOQ_STORE, else data/geoq.gpkg).")
    package var store: String?

    package init() {}

    /// The store: --store (a file or an address, never an address taken for a file), else the
    /// usual store.
    package func storeAddress() throws -> StoreAddress {
        if let store {
            do throws(LayerError) { return try StoreAddress(option: store) } catch {
                fail("--store: \(error.description)", code: "bad-arguments")
                throw ExitCode(ExitStatus.usage)
            }
        }
        do { return .geoPackage(try DataLocations.resolveForCommand().storeFile) } catch {
            throw ValidationError(error.description)
        }
    }

    /// Whether there is a store to read: a database always is (its tables are made on first
    /// use); a GeoPackage only once its file exists, so that listing never creates one.
    package func storeExists() throws -> Bool {
        guard let file = try storeAddress().file else { return true }
        return FileManager.default.fileExists(atPath: file.path)
    }

    /// Runs `body` over the tracking store; a store error is reported (text or JSON) and ends the
    /// command: 65 when the GeoPackage cannot be read, 74 when it could not be written, and the
    /// database's own statuses (``ExitStatus/of(_:)-(SharedStoreError)``) for a shared store.
    package func withStore<T>(_ body: (TrackingStore) throws -> T) throws -> T {
        let store = TrackingStore(address: try storeAddress())
        do { return try body(store) } catch let error as StoreError {
            fail(error.description, code: error.code.rawValue)
            switch error.code {
            case .storeUnreadable, .notAGeoPackage: throw ExitCode(ExitStatus.dataError)
            default: throw ExitCode(ExitStatus.ioError)
            }
        } catch let error as SharedStoreError {
            fail(error.description, code: error.code)
            throw ExitCode(ExitStatus.of(error))
        }
    }

    package func fail(_ message: String, code: String) {
        var stderr = StandardError()
        stderr.write(
            format == .text
                ? "geoq: error: \(message)\n" : AnswerRenderer.errorJSON(code: code, message: message) + "\n")
    }

    package func write(text: String, json: Any) {
        var out = StandardOutput()
        out.write(format == .text ? text : AnswerRenderer.serialise(json, pretty: true) + "\n")
    }
}
