import ArgumentParser
import Foundation
import GeoqAccess
import GeoqCommands
import GeoqLayers
import GeoqSchedule
import GeoqStore

/// `geoq keys`: the API keys `geoq serve` accepts, kept hashed in the store.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: GeoqRoot.ServerAbstract.keys,
        discussion: """
            A key speaks for one tenant with some scopes: track (post fixes, issue device \
            tokens), events (read events), hooks (manage webhooks), admin (metrics, erasure, \
            error details), read (the read endpoints, when `geoq serve --private-reads`). Clients \
            send it as `Authorization: Bearer KEY`. The key is printed once, when it is made: the \
            store keeps only its SHA-256. A running service (every replica of a shared store) \
            sees a new, revoked or expired key within a second.

            Examples:
              geoq keys add --tenant parking-app --scope track --scope events --scope hooks
              geoq keys add --tenant parking-app --scope read --expires 90d --rate 20
              geoq keys add --tenant ops --scope admin --format json
              geoq keys list
              geoq keys revoke 3f9c2a1b7e40

            Exit status: 0 done, 64 bad arguments (an unknown scope, an unknown or revoked key \
            id, a bad store address), 65 the store cannot be read, 69 the database cannot be \
            reached, 74 the store could not be written, 77 the database refused the credentials.
            """,
        subcommands: [KeysAdd.self, KeysList.self, KeysRevoke.self], defaultSubcommand: KeysList.self)
}

extension StoredKey {
    /// A key's record as JSON (never its text or hash).
    var object: [String: Any] {
        let iso = ISO8601DateFormatter()
        var object: [String: Any] = [
            "id": id, "tenant": tenant, "scopes": scopes, "created": iso.string(from: created),
        ]
        if let expires { object["expires"] = iso.string(from: expires) }
        if let revoked { object["revoked"] = iso.string(from: revoked) }
        if let rate { object["rate"] = rate }
        return object
    }

    /// A key's record as one line of text.
    func line(at now: Date) -> String {
        let iso = ISO8601DateFormatter()
        let state =
            revoked.map { "revoked " + iso.string(from: $0) }
            ?? expires.map { ($0 <= now ? "expired " : "expires ") + iso.string(from: $0) } ?? "no expiry"
        return "\(id)\t\(tenant)\t\(scopes.joined(separator: ","))\t\(state)\trate: "
            + (rate.map { "\($0)/s" } ?? "default")
    }
}

/// `geoq keys add --tenant T --scope S ...`.
struct KeysAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Make a key and print it (once: the store keeps only its hash).")

    @Option(name: .long, help: "The tenant the key speaks for (its devices, events and hooks).")
    var tenant: String

    @Option(
        name: .customLong("scope"),
        help: "A scope: \(Scope.allCases.map(\.rawValue).joined(separator: ", ")) (repeat for several).")
    var scopes: [String] = []

    @Option(name: .long, help: "When the key stops working: a duration from now (90d, 12h) or an ISO 8601 time.")
    var expires: String?

    @Option(name: .long, help: "Requests per second the key may make (default: the service's --rate-key).")
    var rate: Double?

    @OptionGroup var options: StoreCommandOptions

    func run() throws {
        guard !scopes.isEmpty else { return try usage("--scope: name at least one scope") }
        let parsed: [Scope]
        switch Scope.parse(scopes) {
        case .success(let found): parsed = found
        case .failure(let error): return try usage("--scope: \(error.description)")
        }
        guard !tenant.isEmpty, tenant.utf8.count <= 128 else { return try usage("--tenant: 1 to 128 bytes") }
        if let rate, !(rate.isFinite && rate > 0) { return try usage("--rate: a number of requests per second over 0") }
        let now = Date()
        var expiry: Date?
        if let expires {
            if let duration = DurationOption(argument: expires), duration.seconds > 0 {
                expiry = now + duration.seconds
            } else if let instant = InternetTime.parse(expires), instant > now {
                expiry = instant
            } else {
                return try usage("--expires: a duration (90d, 12h, 3600) or a future ISO 8601 time, got \"\(expires)\"")
            }
        }
        let made = APIKey.make(tenant: tenant, scopes: parsed, expires: expiry, rate: rate, now: now)
        try options.withStore { try $0.addKey(made.record) }
        var json = made.record.object
        json["key"] = made.text
        // The key alone on standard output, so that `KEY=$(geoq keys add ...)` takes just it.
        options.write(text: "\(made.text)\n", json: json)
        if options.format == .text {
            FileHandle.standardError.write(
                Data("geoq keys: key \(made.record.line(at: now)); shown once: keep it now\n".utf8))
        }
    }

    func usage(_ message: String) throws {
        options.fail(message, code: "bad-arguments")
        throw ExitCode(ExitStatus.usage)
    }
}

/// `geoq keys [list]`.
struct KeysList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the keys (ids, tenants, scopes, expiry; never the keys).")

    @OptionGroup var options: StoreCommandOptions

    func run() throws {
        let keys = try options.storeExists() ? try options.withStore { try $0.keys() } : []
        let now = Date()
        options.write(
            text: keys.isEmpty ? "No keys.\n" : keys.map { $0.line(at: now) + "\n" }.joined(),
            json: ["keys": keys.map(\.object)])
    }
}

/// `geoq keys revoke ID`.
struct KeysRevoke: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke a key: it, and every device token it issued, stops working within a second.")

    @Argument(help: "The key's id (as `geoq keys list` shows it).")
    var id: String

    @OptionGroup var options: StoreCommandOptions

    func run() throws {
        let revoked = try options.storeExists() ? try options.withStore { try $0.revokeKey(id: id) } : false
        guard revoked else {
            options.fail("no active key with id \(id) (see geoq keys list)", code: "unknown-key")
            throw ExitCode(ExitStatus.usage)
        }
        options.write(text: "Revoked key \(id).\n", json: ["revoked": id])
    }
}
