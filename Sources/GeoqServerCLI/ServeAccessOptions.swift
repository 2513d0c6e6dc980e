import ArgumentParser
import Foundation
import GeoqAccess
import GeoqCommands
import GeoqServer

/// `geoq serve`'s options of who may ask what, how often, and how long tracking data is kept
/// (docs/SECURITY.md explains each default).
struct ServeAccessOptions: ParsableArguments {
    @Flag(
        name: .customLong("private-reads"),
        help: "The read endpoints (sector, nearest, layers, ...) need a key with the read scope.")
    var privateReads = false

    @Option(
        name: .customLong("allowed-host"),
        help: "A Host value served (repeat; '*' for any). Default: the --host address, localhost, 127.0.0.1, ::1.")
    var allowedHosts: [String] = []

    @Option(
        name: .customLong("page-key"),
        help: "A key with the read scope only, written into the map page for every visitor (with --private-reads).")
    var pageKey: String?

    @Option(
        name: .customLong("cors-origin"),
        help: "A browser origin whose pages may call the service (repeat; none by default).")
    var corsOrigins: [String] = []

    @Option(
        name: .customLong("metrics-host"),
        help: "A loopback address whose clients may read /metrics without a key (127.0.0.1 or ::1).")
    var metricsHost: String?

    @Option(
        name: .customLong("rate-anonymous"), help: "Requests a second per client address without a key (0: no limit).")
    var anonymousRate: Double = AccessRules.defaultAnonymousRate.rate

    @Option(name: .customLong("rate-key"), help: "Requests a second of a key made without --rate.")
    var keyRate: Double = AccessRules.defaultKeyRate.rate

    @Option(name: .customLong("max-fixes"), help: "The most fixes one POST /v1/fixes takes.")
    var maxFixes = TrackingLimits().maxFixesPerRequest

    @Option(name: .customLong("max-devices"), help: "The most devices a tenant may have.")
    var maxDevices = TrackingLimits().maxDevicesPerTenant

    @Option(name: .customLong("max-hooks"), help: "The most webhooks a tenant may have.")
    var maxHooks = TrackingLimits().maxHooksPerTenant

    @Option(
        name: .customLong("max-future"),
        help: "How far ahead of the service's clock a posted fix may be dated (a duration: 300s, 5m).")
    var maxFuture = DurationOption(seconds: TrackingLimits().maxFutureSkew.timeInterval)

    @Option(name: .customLong("retain-events"), help: "How long events and their deliveries are kept (30d, 12h).")
    var retainEvents = DurationOption(seconds: TrackingLimits().retainEvents.timeInterval)

    @Option(
        name: .customLong("retain-tracks"),
        help: "How long a device's track is kept after its last fix; older fixes are refused (30d).")
    var retainTracks = DurationOption(seconds: TrackingLimits().retainTracks.timeInterval)

    @Option(
        name: .customLong("idle-in-memory"),
        help: "How long a device outside every feature stays in memory after its last fix (it stays in the store).")
    var idleInMemory = DurationOption(seconds: TrackingLimits().idleInMemory.timeInterval)

    func validate() throws {
        if let metricsHost, !AccessRules.isLoopback(metricsHost) {
            throw ValidationError("--metrics-host must be a loopback address (127.0.0.1 or ::1), got \(metricsHost)")
        }
        for (option, rate) in [("--rate-anonymous", anonymousRate), ("--rate-key", keyRate)]
        where !(rate.isFinite && rate >= 0) {
            throw ValidationError("\(option) must be a number of requests a second ≥ 0, got \(rate)")
        }
        guard keyRate > 0 else { throw ValidationError("--rate-key must be over 0") }
        for (option, value) in [("--max-fixes", maxFixes), ("--max-devices", maxDevices), ("--max-hooks", maxHooks)]
        where value < 1 {
            throw ValidationError("\(option) must be at least 1, got \(value)")
        }
        guard idleInMemory.seconds >= 1 else {
            throw ValidationError("--idle-in-memory must be at least 1 second, got \(idleInMemory.seconds) s")
        }
        for (option, value) in [("--retain-events", retainEvents), ("--retain-tracks", retainTracks)]
        where value.seconds < 60 {
            throw ValidationError("\(option) must be at least 60 seconds, got \(value.seconds) s")
        }
        for origin in corsOrigins where URL(string: origin)?.scheme == nil || origin.hasSuffix("/") {
            throw ValidationError("--cors-origin must be an origin such as https://app.example.org, got \(origin)")
        }
    }

    /// The rules for a service listening on `host`.
    func rules(listeningOn host: String) -> AccessRules {
        let hosts: Set<String>? =
            allowedHosts.contains("*")
            ? nil
            : allowedHosts.isEmpty
                ? AccessRules.defaultHosts(listeningOn: host) : Set(allowedHosts.map { $0.lowercased() })
        return AccessRules(
            privateReads: privateReads, allowedHosts: hosts, corsOrigins: Set(corsOrigins),
            metricsFromLoopback: metricsHost != nil,
            // Bursts of two seconds' worth, as a key made with --rate gets.
            anonymousRate: anonymousRate > 0 ? RateLimiter.Policy(rate: anonymousRate, burst: 2 * anonymousRate) : nil,
            keyRate: RateLimiter.Policy(rate: keyRate, burst: 2 * keyRate),
            pageKeyID: pageKey.flatMap(APIKey.id(of:)))
    }

    var limits: TrackingLimits {
        TrackingLimits(
            maxFixesPerRequest: maxFixes, maxDevicesPerTenant: maxDevices, maxHooksPerTenant: maxHooks,
            maxFutureSkew: maxFuture.duration, retainEvents: retainEvents.duration, retainTracks: retainTracks.duration,
            idleInMemory: idleInMemory.duration)
    }
}
