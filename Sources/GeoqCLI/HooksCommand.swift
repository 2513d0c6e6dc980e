import ArgumentParser
import Foundation
import GeoqHooks
import GeoqLayers
import GeoqPostGIS
import GeoqStore

/// `geoq hooks`: the webhooks kept in the store, to which `geoq serve` delivers tracking events.
struct HooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hooks",
        abstract: "Webhooks for tracking events: list, add or delete them.",
        discussion: """
            A hook is a URL to which `geoq serve` POSTs each tracking event (enter, exit, dwell, \
            parked, left) as JSON, with an Idempotency-Key header "<hook id>-<event sequence>", \
            until the receiver answers 2xx (retries with backoff; a dead letter after the last \
            try). A hook may be limited to one layer and to some event kinds. Hooks live in the \
            store, so a running service sees those added here (and the same checks apply as for \
            POST /v1/hooks).

            Examples:
              geoq hooks
              geoq hooks add https://parking.example.org/geoq-events
              geoq hooks add http://127.0.0.1:9000/arrivals --layer pamplona-sectors \\
                --event parked --event left
              geoq hooks list --format json
              geoq hooks delete 3
              geoq hooks --store /var/lib/geoq/geoq.gpkg
              geoq hooks add http://10.0.0.5:9000/arrivals --store postgresql://geoq@db:5432/city

            Exit status: 0 done, 64 bad arguments (a URL that is not absolute http(s), an \
            unknown layer or event kind, an unknown hook id, a bad store address), 65 the store \
            cannot be read, 66 no such database, 69 the database cannot be reached, 74 the store \
            could not be written (or the database refused a statement), 77 the database refused \
            the credentials.
            """,
        subcommands: [HooksList.self, HooksAdd.self, HooksDelete.self], defaultSubcommand: HooksList.self)
}

/// The options every `geoq hooks` subcommand takes.
struct HooksOptions: ParsableArguments {
    /// What the hooks commands print: sentences or JSON (there is nothing to map).
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
        var output: OutputFormat { self == .text ? .text : .json }
    }

    @Option(name: .long, help: "Output format: text or json.")
    var format: Format = .text

    @Option(
        name: .long,
        help: "The store: a GeoPackage file or a postgresql:// address (default $GEOQ_STORE, else data/geoq.gpkg).")
    var store: String?

    /// The store: --store (a file or an address, never an address taken for a file), else the
    /// usual store.
    func storeAddress() throws -> StoreAddress {
        if let store {
            do { return try StoreAddress(parsing: store) } catch {
                fail("--store: \(error.description)", code: "bad-arguments")
                throw ExitCode(ExitStatus.usage)
            }
        }
        do { return .geoPackage(try DataLocations.resolve().storeFile) } catch {
            throw ValidationError(error.description)
        }
    }

    /// Whether there is a store to read: a database always is (its tables are made on first
    /// use); a GeoPackage only once its file exists, so that listing never creates one.
    func storeExists() throws -> Bool {
        guard let file = try storeAddress().file else { return true }
        return FileManager.default.fileExists(atPath: file.path)
    }

    /// Runs `body` over the tracking store; a store error is reported (text or JSON) and ends the
    /// command: 65 when the GeoPackage cannot be read, 74 when it could not be written, and the
    /// database's own statuses (``ExitStatus/of(_:)-PostGISError``) for PostgreSQL.
    func withStore<T>(_ body: (TrackingStore) throws -> T) throws -> T {
        let store = TrackingStore(address: try storeAddress())
        do { return try body(store) } catch let error as StoreError {
            fail(error.description, code: error.code.rawValue)
            switch error.code {
            case .storeUnreadable, .notAGeoPackage: throw ExitCode(ExitStatus.dataError)
            default: throw ExitCode(ExitStatus.ioError)
            }
        } catch let error as PostGISError {
            fail(error.description, code: error.code)
            throw ExitCode(ExitStatus.of(error))
        }
    }

    func fail(_ message: String, code: String) {
        var stderr = StandardError()
        stderr.write(
            format == .text
                ? "geoq: error: \(message)\n" : AnswerRenderer.errorJSON(code: code, message: message) + "\n")
    }

    func write(text: String, json: Any) {
        var out = StandardOutput()
        out.write(format == .text ? text : AnswerRenderer.serialise(json, pretty: true) + "\n")
    }

    /// A hook as JSON: the same fields `GET /v1/hooks` gives.
    static func object(_ hook: Hook) -> [String: Any] {
        var object: [String: Any] = [
            "id": hook.id, "url": hook.url, "created": ISO8601DateFormatter().string(from: hook.created),
        ]
        if let layer = hook.layer { object["layer"] = layer }
        if let events = hook.events { object["events"] = events }
        return object
    }

    /// A hook as one line of text: id, URL, then what it is limited to.
    static func line(_ hook: Hook) -> String {
        "\(hook.id)\t\(hook.url)\tlayer: \(hook.layer ?? "any")\tevents: "
            + (hook.events?.joined(separator: ",") ?? "all") + "\tcreated "
            + ISO8601DateFormatter().string(from: hook.created)
    }
}

/// `geoq hooks [list]`.
struct HooksList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the hooks, by id.")

    @OptionGroup var options: HooksOptions

    func run() throws {
        // Listing never creates a store: no file means no hooks.
        let hooks = try options.storeExists() ? try options.withStore { try $0.hooks() } : []
        options.write(
            text: hooks.isEmpty ? "No hooks.\n" : hooks.map { HooksOptions.line($0) + "\n" }.joined(),
            json: ["hooks": hooks.map(HooksOptions.object)])
    }
}

/// `geoq hooks add URL [--layer L] [--event E ...]`.
struct HooksAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a hook: events are POSTed to URL from now on.",
        discussion: """
            Only events committed after the hook is added are delivered to it. Without --layer \
            the hook gets events of every layer; without --event, every kind.
            """)

    @Argument(help: "Where to POST events: an absolute http or https URL.")
    var url: String

    @Option(name: .long, help: "Only events of this layer (as `geoq layers` lists them).")
    var layer: String?

    @Option(
        name: .customLong("event"),
        help: "Only events of this kind: \(HookRequest.eventKinds.joined(separator: ", ")) (repeat for several).")
    var events: [String] = []

    @OptionGroup var options: HooksOptions

    /// The option each of `HookRequest`'s fields comes from, to name it in an error.
    static let optionOfField = ["url": "URL", "layer": "--layer", "events": "--event"]

    func run() throws {
        let request = HookRequest(url: url, layer: layer, events: events.isEmpty ? nil : events)
        // The layers are read only when one is named: a hook for every layer needs no catalog.
        let layers =
            layer == nil
            ? [] : Set(try LayerLibrary.openForCommand(store: options.store, format: options.format.output).names)
        if let problem = request.problem(layers: layers) {
            options.fail(
                "\(Self.optionOfField[problem.field] ?? problem.field): \(problem.message)", code: "bad-arguments")
            throw ExitCode(ExitStatus.usage)
        }
        let hook = try options.withStore { store in
            try store.addHook(url: request.url, layer: request.layer, events: request.events)
        }
        options.write(text: "Added hook \(HooksOptions.line(hook))\n", json: HooksOptions.object(hook))
    }
}

/// `geoq hooks delete ID`.
struct HooksDelete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a hook; its undelivered events become dead letters.",
        discussion: "Ids are never reused, so a deleted hook's idempotency keys never come back.")

    @Argument(help: "The hook's id (as `geoq hooks list` shows it).")
    var id: Int64

    @OptionGroup var options: HooksOptions

    func run() throws {
        let deleted = try options.storeExists() ? try options.withStore { try $0.deleteHook(id: id) } : false
        guard deleted else {
            options.fail("no hook with id \(id) (see geoq hooks list)", code: "unknown-hook")
            throw ExitCode(ExitStatus.usage)
        }
        options.write(
            text: "Deleted hook \(id); its undelivered events will not be sent.\n", json: ["deleted": id])
    }
}
