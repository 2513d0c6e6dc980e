import Foundation
import GeoqAccess
import GeoqLayers
import GeoqStore
import Testing

/// `GET /v1/events/stream` over real sockets, on a GeoPackage and on PostgreSQL: who may open it,
/// the tenant's events only, as they happen, filtered, resumed after `Last-Event-ID`, and (on a
/// shared store) the events another replica committed.
@Suite(.serialized) struct EventStreamTests {
    typealias Backend = AccessTests.Backend

    /// One Server-Sent Event, as the WHATWG HTML standard's parsing algorithm reads a stream.
    struct Event: Equatable {
        var id: String?
        var kind: String
        var data: String
    }

    /// An event stream read over a raw connection: the chunked body taken apart, then the
    /// stream's lines (fields `id`, `event`, `data`; `:` comments; a blank line ends an event).
    final class Stream {
        let connection: RawConnection
        private var offset = 0
        private var body: [UInt8] = []
        private(set) var head = ""
        private(set) var events: [Event] = []
        private(set) var comments = 0
        private var pending = Event(id: nil, kind: "message", data: "")
        private var hasData = false
        private var lineStart = 0

        init(port: Int, path: String, key: String, headers: [String: String] = [:]) throws {
            connection = try RawConnection(port: port)
            var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\n"
            for (name, value) in headers { request += "\(name): \(value)\r\n" }
            connection.send(request + "\r\n")
        }

        /// Reads what arrived: the head once, then the body's chunks, then its events.
        func poll() {
            connection.poll()
            let received = connection.received
            if head.isEmpty {
                guard
                    let end = received.indices.dropLast(3).first(where: { i in
                        received[i] == 13 && received[i + 1] == 10 && received[i + 2] == 13 && received[i + 3] == 10
                    })
                else { return }
                head = String(decoding: received[..<end], as: UTF8.self)
                offset = end + 4
            }
            // Chunks: a hex size line, that many bytes, CRLF.
            while let lineEnd = received[offset...].indices.first(where: { received[$0] == 10 }) {
                let sizeText = String(decoding: received[offset..<lineEnd], as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                guard let size = Int(sizeText, radix: 16), lineEnd + 1 + size + 2 <= received.count else { break }
                body += received[(lineEnd + 1)..<(lineEnd + 1 + size)]
                offset = lineEnd + 1 + size + 2
            }
            parse()
        }

        private func parse() {
            while let end = body[lineStart...].firstIndex(of: 10) {
                let line = String(decoding: body[lineStart..<end], as: UTF8.self)
                lineStart = end + 1
                if line.isEmpty {
                    if hasData { events.append(pending) }
                    pending = Event(id: pending.id, kind: "message", data: "")
                    hasData = false
                } else if line.hasPrefix(":") {
                    comments += 1
                } else {
                    let (field, value) =
                        line.firstIndex(of: ":").map { colon in
                            (String(line[..<colon]), String(line[line.index(after: colon)...]).dropFirstSpace)
                        } ?? (line, "")
                    switch field {
                    case "id": pending.id = value
                    case "event": pending.kind = value
                    case "data":
                        pending.data += hasData ? "\n" + value : value
                        hasData = true
                    default: break
                    }
                }
            }
        }

        /// Polls until `condition` holds of the events or `seconds` pass.
        func wait(within seconds: Double, until condition: ([Event]) -> Bool) async throws -> Bool {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while ContinuousClock.now < deadline {
                poll()
                if condition(events) { return true }
                try await Task.sleep(for: .milliseconds(20))
            }
            return false
        }
    }

    static func fixes(_ device: String, at time: Date) -> String {
        // Inside Sector 2, then far outside: an enter and an exit (every crossing on its first fix).
        [AccessTests.fix(device, time - 2), AccessTests.fix(device, time - 1, lat: 42.95)].joined(separator: "\n")
    }

    @Test(arguments: Backend.available) func theTenantsEventsAsTheyHappen(_ backend: Backend) async throws {
        let place = try AccessTests.Store(backend)
        let store = place.tracking
        let acme = try AccessTests.key(store, "acme", [.track, .events])
        let tracker = try AccessTests.key(store, "acme", [.track])
        let other = try AccessTests.key(store, "other", [.track, .events])
        try await AccessTests.withService(store) { port, _ in
            let path = "/v1/events/stream"
            #expect(try await AccessTests.request(port, "GET", path).status == 401)
            #expect(try await AccessTests.request(port, "GET", path, key: tracker.text).status == 403)
            #expect(try await AccessTests.request(port, "GET", path + "?kind=arrived", key: acme.text).status == 400)
            let badResume = try await AccessTests.request(
                port, "GET", path, key: acme.text, headers: ["Last-Event-ID": "yesterday"])
            #expect(badResume.status == 400)

            // Opened before anything happened: only what comes after.
            let stream = try Stream(port: port, path: path, key: acme.text)
            let exits = try Stream(port: port, path: path + "?kind=exit", key: acme.text)
            #expect(try await stream.wait(within: 5) { _ in stream.comments > 0 })
            #expect(stream.head.hasPrefix("HTTP/1.1 200") && stream.head.contains("text/event-stream"))
            let now = Date()
            let ndjson = ["Content-Type": "application/x-ndjson"]
            let theirs = try await AccessTests.request(
                port, "POST", "/v1/fixes", key: other.text, headers: ndjson, body: Self.fixes("car-b", at: now))
            #expect(theirs.status == 200)
            let mine = try await AccessTests.request(
                port, "POST", "/v1/fixes", key: acme.text, headers: ndjson, body: Self.fixes("car-a", at: now))
            #expect(mine.status == 200, "\(mine.body)")
            #expect(try await stream.wait(within: 5) { $0.count >= 2 })
            #expect(stream.events.map(\.kind) == ["enter", "exit"])
            #expect(stream.events.allSatisfy { $0.data.contains(#""device":"car-a""#) })
            // Each event's data is the event as /v1/events has it, its id the sequence there.
            let pulled = try await AccessTests.request(port, "GET", "/v1/events?since=0", key: acme.text)
            let records = try #require(pulled.json["events"] as? [[String: Any]])
            #expect(stream.events.map(\.id) == records.map { ($0["sequence"] as? Int).map(String.init) })
            for (event, record) in zip(stream.events, records) {
                let data = try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? NSDictionary
                #expect(data == record["event"] as? NSDictionary)
            }
            #expect(try await exits.wait(within: 5) { $0.count >= 1 })
            #expect(exits.events.map(\.kind) == ["exit"])

            // A client that comes back after the first event gets the rest, and what follows.
            let resumed = try Stream(
                port: port, path: path, key: acme.text, headers: ["Last-Event-ID": stream.events[0].id ?? ""])
            #expect(try await resumed.wait(within: 5) { $0.count >= 1 })
            #expect(resumed.events.map(\.id) == [stream.events[1].id])
            let again = try await AccessTests.request(
                port, "POST", "/v1/fixes", key: acme.text, headers: ndjson,
                body: Self.fixes("car-a", at: now + 10))
            #expect(again.status == 200)
            #expect(try await resumed.wait(within: 5) { $0.count >= 3 })
            #expect(resumed.events.map(\.kind) == ["exit", "enter", "exit"])
            #expect(stream.events.count <= 4 && !stream.events.contains { $0.data.contains("car-b") })

            // Events another replica committed (no bell rings here): read from a shared store
            // within its second; a GeoPackage has no other writer.
            if store.isShared {
                let before = resumed.events.count
                let body = Data(#"{"event":"dwell","device":"car-z"}"#.utf8)
                try store.commit(
                    tracks: [],
                    events: [
                        StoredEvent(
                            tenant: "acme", device: "car-z", layer: "pamplona-sectors", kind: "dwell", body: body)
                    ])
                #expect(try await resumed.wait(within: 5) { $0.count > before })
                #expect(resumed.events.last?.kind == "dwell")
            }
        }
    }
}

extension String {
    /// Without the one space the stream's format allows after a field's colon.
    fileprivate var dropFirstSpace: String { hasPrefix(" ") ? String(dropFirst()) : self }
}
