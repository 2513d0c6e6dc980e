import ArgumentParser
import Testing

@testable import GeoqCLI

/// `geoq serve`'s options: bad values are usage errors (exit 64) that name the option.
@Suite struct ServeOptionsTests {
    @Test(arguments: [
        (["--threads", "0"], "--threads must be between 1 and 256, got 0"),
        (["--threads", "300"], "--threads must be between 1 and 256, got 300"),
        (["--port", "70000"], "--port must be between 1 and 65535, got 70000"),
        (["--max-batch", "0"], "--max-batch must be at least 1, got 0"),
        (["--request-timeout", "0"], "--request-timeout must be between 0.001 and 86400 seconds, got 0.0"),
    ])
    func badValuesAreUsageErrors(arguments: [String], message: String) {
        do {
            _ = try Geoq.parseAsRoot(["serve"] + arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            #expect(Geoq.exitCode(for: error) == .validationFailure)
            #expect(Geoq.message(for: error) == message)
        }
    }

    @Test func threadsDefaultToOnePerCore() throws {
        let serve = try #require(try Geoq.parseAsRoot(["serve"]) as? ServeCommand)
        #expect(serve.threads == nil)
        let one = try #require(try Geoq.parseAsRoot(["serve", "--threads", "1"]) as? ServeCommand)
        #expect(one.threads == 1)
    }
}
