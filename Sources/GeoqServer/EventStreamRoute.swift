import Foundation
import GeoqAPI
import GeoqLayers
import GeoqStore
import Hummingbird
import ServiceLifecycle

/// `GET /v1/events/stream` (scope `events`): the caller's tenant's tracking events as they
/// happen, as Server-Sent Events (the WHATWG HTML standard's `text/event-stream`). Each event has
/// its global sequence as `id`, its kind as `event` and its JSON on one `data` line; a browser's
/// `EventSource` (or any client) that reconnects sends the last id in `Last-Event-ID` and goes on
/// after it, missing nothing that is still in the store. Filters: `device`, `layer`, `kind`
/// (repeatable).
///
/// The store is read again when this process commits events (``EventBell``), and, on a store
/// shared by several replicas, also every second (their events ring no bell here). A comment
/// line every 15 s keeps proxies from closing a quiet stream. The stream ends when the client
/// goes or the service shuts down.
enum EventStreamRoute {
    /// Events read from the store at a time.
    static let page = 500
    /// How long a quiet stream waits before a keep-alive comment.
    static let keepAlive = Duration.seconds(15)
    /// How often a stream over a shared store reads it even with no bell.
    static let sharedPoll = Duration.seconds(1)

    static func register(on router: Router<ServiceRequestContext>, tracking: Tracking) {
        let (store, bell) = (tracking.store, tracking.bell)
        router.get("/v1/events/stream") { request, context -> Response in
            let tenant = try context.principal(holding: .events).tenant
            let query = EndpointRequest(request).parameters
            try query.allowOnly(EndpointDescription.eventStream.parameterNames)
            let device = try query.value("device")
            if device?.isEmpty == true { throw Problem.invalid("device", "device must name a device (1 to 128 bytes)") }
            let layer = try query.value("layer")
            let kinds = Set(try query.values("kind"))
            let known = Set(EndpointDescription.eventKinds)
            if let unknown = kinds.subtracting(known).sorted().first {
                throw Problem.invalid(
                    "kind", "kind '\(unknown)' is not one of \(known.sorted().joined(separator: ", "))")
            }
            let start: Int64
            if let resumed = request.headers[.init("Last-Event-ID")!] {
                guard let sequence = Int64(resumed.trimmingCharacters(in: .whitespaces)), sequence >= 0 else {
                    throw Problem.invalid("Last-Event-ID", "Last-Event-ID must be an event's id (a sequence ≥ 0)")
                }
                start = sequence
            } else if let since = try query.integer("since", in: 0...Int.max) {
                start = Int64(since)
            } else {
                start = try await onThreadOfItsOwn { try store.lastEventSequence() }
            }
            let filter = Filter(device: device, layer: layer, kinds: kinds)
            let body = ResponseBody { writer in
                // The head goes out at once: a client sees the stream open before the first event.
                try await writer.write(ByteBuffer(string: ": geoq tracking events\n\n"))
                var after = start
                var heard = bell.count
                var lastWrite = ContinuousClock.now
                var lastRead = ContinuousClock.now
                var read = true
                while !Task.isCancelled, !Task.isShuttingDownGracefully {
                    if read {
                        let (from, filter) = (after, filter)
                        let records = try await onThreadOfItsOwn {
                            try store.events(tenant: tenant, device: filter.device, since: from, limit: page)
                        }
                        lastRead = .now
                        var text = ""
                        for record in records where filter.matches(record.event) { text += frame(record) }
                        after = records.last?.sequence ?? after
                        if !text.isEmpty {
                            try await writer.write(ByteBuffer(string: text))
                            lastWrite = .now
                        }
                        if records.count == page { continue }
                    }
                    try await Task.sleep(for: .milliseconds(50))
                    let rung = bell.count != heard
                    heard = bell.count
                    read = rung || (store.isShared && ContinuousClock.now - lastRead >= sharedPoll)
                    if !read, ContinuousClock.now - lastWrite >= keepAlive {
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        lastWrite = .now
                    }
                }
                try await writer.finish(nil)
            }
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream; charset=utf-8"
            headers[.cacheControl] = "no-store"
            // nginx would otherwise hold the events in its buffer.
            headers[.init("X-Accel-Buffering")!] = "no"
            return Response(status: .ok, headers: headers, body: body)
        }
    }

    /// What a stream was asked to show.
    struct Filter: Sendable {
        var device: String?
        var layer: String?
        var kinds: Set<String>

        func matches(_ event: StoredEvent) -> Bool {
            (layer == nil || event.layer == layer) && (kinds.isEmpty || kinds.contains(event.kind))
        }
    }

    /// One event as the stream sends it. The event's JSON is one line (JSONEncoder writes no line
    /// breaks), so one `data` field carries it whole.
    static func frame(_ record: EventRecord) -> String {
        let data = String(decoding: record.event.body, as: UTF8.self)
            .replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
        return "id: \(record.sequence)\nevent: \(record.event.kind)\ndata: \(data)\n\n"
    }
}
