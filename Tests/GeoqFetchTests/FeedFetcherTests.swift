import Foundation
import GeoqFetch
import GeoqTestSupport
import Testing

/// Downloads against a local server that answers well, emptily, brokenly, slowly and cut short.
@Suite(.serialized) struct FeedFetcherTests {
    static let fixtures = TestData.packageRoot.appendingPathComponent("Tests/GeoqIncidentsTests/Fixtures")

    @Test func goodEmptyMalformedAndRedirectedBodiesArriveWhole() throws {
        let server = try FeedServer(directory: Self.fixtures)
        let fetcher = FeedFetcher(timeout: 5)
        let file = try Data(contentsOf: Self.fixtures.appendingPathComponent("zaragoza-type-1.xml"))
        #expect(try fetcher.fetch(server.url("/files/zaragoza-type-1.xml")) == file)
        #expect(try fetcher.fetch(server.url("/redirect")) == file)
        #expect(String(decoding: try fetcher.fetch(server.url("/empty")), as: UTF8.self).contains("<channel>"))
        // Malformed XML is a good download: parsing is someone else's error.
        #expect(try fetcher.fetch(server.url("/malformed")).count == 64)
    }

    @Test func eachFailureHasItsOwnError() throws {
        let server = try FeedServer(directory: Self.fixtures)
        let fetcher = FeedFetcher(timeout: 1)
        #expect(throws: FetchError.httpStatus(url: server.url("/notfound"), status: 404)) {
            try fetcher.fetch(server.url("/notfound"))
        }
        #expect(throws: FetchError.httpStatus(url: server.url("/error"), status: 500)) {
            try fetcher.fetch(server.url("/error"))
        }
        #expect(throws: FetchError.timedOut(url: server.url("/slow"), seconds: 1)) {
            try fetcher.fetch(server.url("/slow"))
        }
        // The server announces 1,000 bytes and sends 100.
        #expect(throws: FetchError.truncated(url: server.url("/truncated"), missingBytes: 900)) {
            try fetcher.fetch(server.url("/truncated"))
        }
        #expect(throws: FetchError.tooLarge(url: server.url("/empty"), limit: 10)) {
            try FeedFetcher(timeout: 1, maxBytes: 10).fetch(server.url("/empty"))
        }
    }

    @Test func nothingListeningAndFiles() throws {
        // Port 1 on the loopback: nothing listens there (connection refused).
        do {
            _ = try FeedFetcher(timeout: 2).fetch("http://127.0.0.1:1/feed.xml")
            Issue.record("connected to a closed port")
        } catch {
            guard case .cannotConnect = error else {
                Issue.record("expected cannotConnect, got \(error)")
                return
            }
        }
        #expect(throws: FetchError.unreadableFile(path: "/nonexistent/feed.xml", reason: "no such file")) {
            try FeedFetcher().fetch("/nonexistent/feed.xml")
        }
        let path = Self.fixtures.appendingPathComponent("zaragoza-type-0.xml").path
        #expect(try FeedFetcher().fetch(path) == Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try FeedFetcher().fetch("file://" + path).count > 0)
        #expect(throws: FetchError.badURL("http://")) { try FeedFetcher().fetch("http://") }
    }
}
