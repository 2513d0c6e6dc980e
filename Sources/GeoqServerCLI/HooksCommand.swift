import ArgumentParser
import Foundation
import GeoqCommands
import GeoqHooks
import GeoqLayers
import GeoqStore

/// `geoq hooks`: the webhooks kept in the store, to which `geoq serve` delivers tracking events.
struct HooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hooks",
        abstract: GeoqRoot.ServerAbstract.hooks,
        discussion: """
            A hook is a URL to which `geoq serve` POSTs each tracking event (enter, exit, dwell, \
            parked, left) as JSON, with an Idempotency-Key header "<hook id>-<event sequence>", \
            until the receiver answers 2xx (retries with backoff; a dead letter after the last \
            try). Each POST is signed as the Standard Webhooks specification says (webhook-id, \
            webhook-timestamp, webhook-signature) with the hook's secret, shown once when the hook \
            is added or its secret rotated. A hook belongs to a tenant (--tenant, default \
            "default") and receives only that tenant's events; it may be limited to one layer and \
            to some event kinds. Its URL must be https and reach only global addresses, unless \
            --hook-allow-http and --hook-allow say otherwise (as for geoq serve). A URL \
            redis://HOST[:PORT]?stream=NAME[&maxlen=N] appends the same events to a Redis stream \
            (XADD, fields id and body) where --hook-allow-redis allows it. Hooks live in the \
            store, so a running service sees those added here (and the same checks apply as for \
            POST /v1/hooks).

            Examples:
              geoq hooks
              geoq hooks add https://parking.example.org/geoq-events
              geoq hooks add https://parking.example.org/geoq-events --tenant parking-app
              geoq hooks list --tenant parking-app
              geoq hooks add http://10.0.0.5:9000/arrivals --hook-allow-http \\
                --hook-allow 10.0.0.0/24 --layer pamplona-sectors --event parked
              geoq hooks add "redis://10.0.0.7?stream=geoq-events&maxlen=1000000" \\
                --hook-allow-redis --hook-allow 10.0.0.0/24
              geoq hooks list --format json
              geoq hooks rotate 3 --overlap 24h
              geoq hooks delete 3
              geoq hooks --store /var/lib/geoq/geoq.gpkg
              geoq hooks add https://events.example.org/a --store postgresql://geoq@db/city

            Exit status: 0 done, 64 bad arguments (a URL that is not absolute https, or that \
            reaches a refused address, an unknown layer or event kind, an unknown hook id, a bad \
            store address), 65 the store \
            cannot be read, 66 no such database, 69 the database cannot be reached, 74 the store \
            could not be written (or the database refused a statement), 77 the database refused \
            the credentials.
            """,
        subcommands: [HooksList.self, HooksAdd.self, HooksRotate.self, HooksDelete.self],
        defaultSubcommand: HooksList.self)
}

extension Hook {
    /// A hook as JSON: the same fields `GET /v1/hooks` gives, and its tenant.
    var object: [String: Any] {
        var object: [String: Any] = [
            "id": id, "tenant": tenant, "url": url, "created": ISO8601DateFormatter().string(from: created),
        ]
        if let layer { object["layer"] = layer }
        if let events { object["events"] = events }
        if let disabled { object["disabled"] = ISO8601DateFormatter().string(from: disabled) }
        object["ordered"] = ordered
        return object
    }

    /// A hook as one line of text: id, tenant, URL, then what it is limited to.
    var line: String {
        "\(id)\t\(tenant)\t\(url)\tlayer: \(layer ?? "any")\tevents: "
            + (events?.joined(separator: ",") ?? "all") + (ordered ? "\tordered by device" : "") + "\tcreated "
            + ISO8601DateFormatter().string(from: created)
            + (disabled.map { "\tdisabled " + ISO8601DateFormatter().string(from: $0) + " (410 Gone)" } ?? "")
    }
}

/// `geoq hooks [list]`.
struct HooksList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the hooks, by id.")

    @Option(name: .long, help: "Only the hooks of this tenant (default: every tenant's).")
    var tenant: String?

    @OptionGroup var options: StoreCommandOptions

    func run() throws {
        // Listing never creates a store: no file means no hooks.
        let hooks = try options.storeExists() ? try options.withStore { try $0.hooks(tenant: tenant) } : []
        options.write(
            text: hooks.isEmpty ? "No hooks.\n" : hooks.map { $0.line + "\n" }.joined(),
            json: ["hooks": hooks.map(\.object)])
    }
}

/// `geoq hooks add URL [--layer L] [--event E ...] [--ordered]`.
struct HooksAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a hook: events are POSTed to URL from now on.",
        discussion: """
            Only events committed after the hook is added are delivered to it. Without --layer \
            the hook gets events of every layer; without --event, every kind. With --ordered, \
            each device's events arrive in order: none is sent while an earlier one of the same \
            device waits for its retry (other devices' go on).
            """)

    @Argument(help: "Where to POST events: an absolute http or https URL.")
    var url: String

    @Option(name: .long, help: "Only events of this layer (as `geoq layers` lists them).")
    var layer: String?

    @Option(
        name: .customLong("event"),
        help: "Only events of this kind: \(HookRequest.eventKinds.joined(separator: ", ")) (repeat for several).")
    var events: [String] = []

    @Option(name: .long, help: "The tenant whose events the hook receives.")
    var tenant = defaultTenant

    @Flag(name: .long, help: "Each device's events in order (none while an earlier one of it waits for a retry).")
    var ordered = false

    @OptionGroup var destinations: HookDestinationOptions

    @OptionGroup var options: StoreCommandOptions

    /// The option each of `HookRequest`'s fields comes from, to name it in an error.
    static let optionOfField = ["url": "URL", "layer": "--layer", "events": "--event"]

    func run() async throws {
        let request = HookRequest(url: url, layer: layer, events: events.isEmpty ? nil : events, ordered: ordered)
        // The layers are read only when one is named: a hook for every layer needs no catalog.
        let layers =
            layer == nil
            ? [] : Set(try LayerLibrary.openForCommand(store: options.store, format: options.format.output).names)
        if let problem = request.problem(layers: layers) {
            options.fail(
                "\(Self.optionOfField[problem.field] ?? problem.field): \(problem.message)", code: "bad-arguments")
            throw ExitCode(ExitStatus.usage)
        }
        // The rules the service delivers by: a hook it would refuse is refused here too.
        switch await destinations.rules.check(url, resolver: .system) {
        case .reachable: break
        case .refused(let why), .unresolved(let why):
            options.fail("URL: \(why)", code: "hook-destination-refused")
            throw ExitCode(ExitStatus.usage)
        }
        let hook = try options.withStore { store in
            try store.addHook(
                tenant: tenant, url: request.url, layer: request.layer, events: request.events, ordered: ordered)
        }
        var object = hook.object
        object["secret"] = hook.secret
        options.write(
            text: "Added hook \(hook.line)\nIts signing secret (shown once): \(hook.secret)\n", json: object)
    }
}

/// `geoq hooks rotate ID`.
struct HooksRotate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Give a hook a new signing secret; the old one goes on signing beside it for a while.",
        discussion: """
            The new secret is shown once. Until the overlap ends, each delivery carries two \
            signatures (the new secret's and the old one's), so the receiver can switch to the new \
            secret without refusing a delivery.
            """)

    @Argument(help: "The hook's id (as `geoq hooks list` shows it).")
    var id: Int64

    @Option(name: .long, help: "Only if the hook is this tenant's.")
    var tenant: String?

    @Option(name: .long, help: "How long the old secret goes on signing (a duration: 24h, 30m, 0s).")
    var overlap = DurationOption(seconds: 86_400)

    @OptionGroup var options: StoreCommandOptions

    func run() throws {
        let rotated =
            try options.storeExists()
            ? try options.withStore { try $0.rotateHookSecret(tenant: tenant, id: id, overlap: overlap.duration) }
            : nil
        guard let rotated else {
            options.fail("no hook with id \(id) (see geoq hooks list)", code: "unknown-hook")
            throw ExitCode(ExitStatus.usage)
        }
        let until = ISO8601DateFormatter().string(from: rotated.previousSecretExpires ?? Date())
        options.write(
            text: "Hook \(id)'s new signing secret (shown once): \(rotated.secret)\n"
                + "The previous one signs beside it until \(until).\n",
            json: ["id": id, "secret": rotated.secret, "previousSecretExpires": until])
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

    @Option(name: .long, help: "Only if the hook is this tenant's.")
    var tenant: String?

    @OptionGroup var options: StoreCommandOptions

    func run() throws {
        let deleted =
            try options.storeExists() ? try options.withStore { try $0.deleteHook(tenant: tenant, id: id) } : false
        guard deleted else {
            options.fail("no hook with id \(id) (see geoq hooks list)", code: "unknown-hook")
            throw ExitCode(ExitStatus.usage)
        }
        options.write(
            text: "Deleted hook \(id); its undelivered events will not be sent.\n", json: ["deleted": id])
    }
}
