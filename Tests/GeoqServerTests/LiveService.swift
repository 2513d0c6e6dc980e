import Hummingbird
import Logging
import Testing

/// The service on a free port of 127.0.0.1, for tests that reach it over real connections
/// (raw sockets, TLS, curl) rather than through the router.
enum LiveService {
    /// A logger that keeps a test's output to critical messages.
    static var quietLogger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    /// Runs `body`, given the port the service listens on, beside the application `make`
    /// builds, handed the callback to pass as its `onListening` (port 0 asks for a free port:
    /// the callback says which); then stops the service.
    static func run<App: ApplicationProtocol>(
        _ body: (Int) async throws -> Void,
        serving make: (_ onListening: @escaping @Sendable (Int) -> Void) throws -> App
    ) async throws {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = try make { listening.yield($0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            try await body(port)
            group.cancelAll()
        }
    }
}
