import Foundation
import GeoqServer
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// `--log-requests`: one line per answered request with its status and duration.
@Suite struct AccessLogTests {
    /// Keeps every record logged through it.
    struct CapturingHandler: LogHandler {
        let records: Arc
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        final class Arc: Sendable {
            let lines = Mutex<[(message: String, metadata: Logger.Metadata)]>([])
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            records.lines.withLock { $0.append((event.message.description, all)) }
        }
    }

    @Test func eachAnswerIsLoggedWithStatusAndDuration() async throws {
        let records = CapturingHandler.Arc()
        let logger = Logger(label: "geoq-test") { _ in CapturingHandler(records: records) }
        let app = Application(
            router: Routes.router(state: ServiceState(try RoutesTests.data()), logRequests: true), logger: logger)
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/sector?lat=42.81&lon=-1.64", method: .get)
            try await client.execute(uri: "/v1/sector?lat=91&lon=0", method: .get)
            try await client.execute(uri: "/nowhere", method: .get)
        }
        let lines = records.lines.withLock { $0 }.filter { $0.metadata["hb.response.status"] != nil }
        #expect(lines.count == 3)
        let expected = [("/v1/sector", "200"), ("/v1/sector", "400"), ("/nowhere", "404")]
        for ((message, metadata), (path, status)) in zip(lines, expected) {
            #expect(message.hasPrefix("GET \(path) \(status) "), "\(message)")
            #expect(message.hasSuffix(" ms"))
            #expect(metadata["hb.request.path"]?.description == path)
            #expect(metadata["hb.response.status"]?.description == status)
            #expect(metadata["hb.request.id"] != nil, "the request id Hummingbird assigns")
            let duration = try #require(Double(metadata["duration_ms"]?.description ?? ""))
            #expect(duration > 0 && duration < 60_000)
        }
    }
}
