import ArgumentParser
import GeoqCommands
import GeoqHooks

/// Where webhooks may POST (`geoq serve` and `geoq hooks add` alike): https to global addresses
/// only, unless the operator allows more.
struct HookDestinationOptions: ParsableArguments {
    @Flag(name: .customLong("hook-allow-http"), help: "Hooks may POST to plain http URLs.")
    var allowHTTP = false

    @Flag(
        name: .customLong("hook-allow-redis"),
        help: "Hooks may append to Redis streams (redis://HOST:PORT?stream=NAME), still only at allowed addresses.")
    var allowRedis = false

    @Option(
        name: .customLong("hook-allow"),
        help: ArgumentHelp(
            "An address range hooks may reach although it is not global (repeat), e.g. 10.1.2.0/24.",
            discussion: "Loopback, private, link-local, CGNAT, unique-local and the other special ranges are refused."))
    var allowed: [String] = []

    func validate() throws {
        for text in allowed where AddressRange(text) == nil {
            throw ValidationError(
                "--hook-allow must be an address range such as 10.1.2.0/24 or fd00:1::/64 (host bits zero), got \(text)"
            )
        }
    }

    var rules: DestinationRules {
        DestinationRules(allowHTTP: allowHTTP, allowRedis: allowRedis, allowed: allowed.compactMap(AddressRange.init))
    }
}
