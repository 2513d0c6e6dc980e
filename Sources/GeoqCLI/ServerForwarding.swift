import Foundation
import GeoqCommands

#if canImport(Glibc)
    import Glibc
#endif

/// `geoq` answers from a GeoPackage with no network code linked in; what needs the network
/// stack (the HTTP service, webhooks, API keys, a PostgreSQL store) runs in `geoq-server`, the
/// executable built beside it. `geoq` hands such a command line to it whole, so that users only
/// ever type `geoq`. Keeping the two apart lets the first answer come without compiling SwiftNIO,
/// BoringSSL, Hummingbird or postgres-nio.
enum ServerForwarding {
    /// The commands that exist only in `geoq-server`.
    static let serverCommands: Set<String> = ["serve", "hooks", "keys", "push"]

    /// Whether `arguments` (without the program's name) need `geoq-server`: a server command,
    /// or a store given as a PostgreSQL address, on the command line or in `$GEOQ_STORE`.
    static func isNeeded(for arguments: [String], environment: [String: String]) -> Bool {
        // The command is the first word that is not an option (`geoq help serve` asks of serve).
        let words = arguments.filter { !$0.hasPrefix("-") }
        let command = words.first == "help" ? words.dropFirst().first : words.first
        if let command, serverCommands.contains(command) { return true }
        if let store = environment["GEOQ_STORE"], isDatabaseAddress(store) { return true }
        for argument in arguments {
            if argument == "--" { break }
            let value = argument.hasPrefix("--store=") ? String(argument.dropFirst("--store=".count)) : argument
            if isDatabaseAddress(value) { return true }
        }
        return false
    }

    /// A `postgresql://` or `postgres://` address (the store's own test for an address).
    static func isDatabaseAddress(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    /// `geoq-server` in the folder of the running `geoq`.
    static var serverExecutable: URL {
        let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return own.deletingLastPathComponent().appendingPathComponent("geoq-server")
    }

    /// Replaces this process with `geoq-server` and the same arguments (standard streams,
    /// environment and exit status are then the server's own); returns only when it cannot, after
    /// saying why, with the exit status to end with.
    static func replaceProcess(arguments: [String]) -> Int32 {
        let server = serverExecutable
        guard FileManager.default.isExecutableFile(atPath: server.path) else {
            var stderr = StandardError()
            let command = arguments.first(where: { !$0.hasPrefix("-") }) ?? "this command"
            stderr.write(
                """
                geoq: \(command) runs in geoq-server (the HTTP service, webhooks, API keys and \
                PostgreSQL stores), which is not built beside \(server.deletingLastPathComponent().path): \
                build it with `swift build --product geoq-server` (with the same -c as geoq)

                """)
            return ExitStatus.unavailable
        }
        let argv = ([server.path] + arguments).map { strdup($0) } + [nil]
        execv(server.path, argv)
        var stderr = StandardError()
        stderr.write("geoq: could not start \(server.path): \(String(cString: strerror(errno)))\n")
        return ExitStatus.unavailable
    }
}
