import ArgumentParser
import Foundation
import Testing

@testable import GeoqServerCLI

/// `geoq serve`'s options: bad values are usage errors (exit 64) that name the option.
@Suite struct ServeOptionsTests {
    @Test(arguments: [
        (["--threads", "0"], "--threads must be between 1 and 256, got 0"),
        (["--threads", "300"], "--threads must be between 1 and 256, got 300"),
        (["--port", "70000"], "--port must be between 1 and 65535, got 70000"),
        (["--max-batch", "0"], "--max-batch must be at least 1, got 0"),
        (["--request-timeout", "0"], "--request-timeout must be between 0.001 and 86400 seconds, got 0.0"),
        (["--header-timeout", "0"], "--header-timeout must be between 0.001 and 86400 seconds, got 0.0"),
        (["--header-timeout", "nan"], "--header-timeout must be between 0.001 and 86400 seconds, got nan"),
        (["--idle-timeout", "0.0001"], "--idle-timeout must be between 0.001 and 86400 seconds, got 0.0001"),
        (["--idle-timeout", "100000"], "--idle-timeout must be between 0.001 and 86400 seconds, got 100000.0"),
        (["--max-connections", "0"], "--max-connections must be between 1 and 1000000, got 0"),
    ])
    func badValuesAreUsageErrors(arguments: [String], message: String) {
        do {
            _ = try GeoqServerCommand.parseAsRoot(["serve"] + arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            #expect(GeoqServerCommand.exitCode(for: error) == .validationFailure)
            #expect(GeoqServerCommand.message(for: error) == message)
        }
    }

    /// nginx's defaults (client_header_timeout 60 s, keepalive_timeout 75 s); the cap within
    /// the descriptor limit.
    @Test func connectionLimitsDefaultNearNginxs() throws {
        let serve = try #require(try GeoqServerCommand.parseAsRoot(["serve"]) as? ServeCommand)
        #expect(serve.connectionLimits.headerTimeout == .seconds(60))
        #expect(serve.connectionLimits.idleTimeout == .seconds(75))
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let expected = limit.rlim_cur == rlim_t.max ? 10_000 : max(1, min(10_000, Int(limit.rlim_cur) / 4 * 3))
        #expect(serve.connectionLimits.maxConnections == expected)
        #expect(serve.connectionLimits.maxConnections < Int(clamping: limit.rlim_cur))
        let set = try #require(
            try GeoqServerCommand.parseAsRoot(
                ["serve", "--header-timeout", "0.5", "--idle-timeout", "2", "--max-connections", "300"])
                as? ServeCommand)
        #expect(set.connectionLimits.headerTimeout == .milliseconds(500))
        #expect(set.connectionLimits.idleTimeout == .seconds(2))
        #expect(set.connectionLimits.maxConnections == 300)
    }

    @Test func threadsDefaultToOnePerCore() throws {
        let serve = try #require(try GeoqServerCommand.parseAsRoot(["serve"]) as? ServeCommand)
        #expect(serve.threads == nil)
        let one = try #require(try GeoqServerCommand.parseAsRoot(["serve", "--threads", "1"]) as? ServeCommand)
        #expect(one.threads == 1)
    }
}
