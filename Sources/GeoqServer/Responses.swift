import Foundation
import GeoqAPI
import GeoqJSON
import GeoqParking
import GeoqSchedule
import Hummingbird

/// JSON and problem+json bodies, written the same way as the CLI's `--format json`: sorted
/// keys, slashes unescaped.
enum Responses {
    static func json(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, contentType: String = "application/json"
    ) -> Answer {
        guard let data = encode(value) else { return problem(.internalError("could not encode the answer")) }
        return body(data, status: status, contentType: contentType)
    }

    /// JSON written by the value itself (the same text as `json(_:)` gives, faster).
    /// - Parameter capacity: bytes reserved for the text; an answer known to be longer than the
    ///   default (a park answer: 1.5 to 3 KB) is written without growing its buffer on the way.
    static func json(_ value: some JSONWritable & Encodable, reservingCapacity capacity: Int = 512) -> Answer {
        var text = JSONText(reservingCapacity: capacity)
        value.write(to: &text)
        return Answer(status: .ok, contentType: "application/json", body: ByteBuffer(bytes: text.bytes))
    }

    /// A park answer's text, written straight into the body, with room before it for the HTTP
    /// head (see ``Answer/headroom``).
    static func json(text: ParkAnswerText) -> Answer {
        var body = ByteBuffer()
        body.reserveCapacity(Answer.headroom + text.maximumCount)
        body.moveWriterIndex(to: Answer.headroom)
        body.moveReaderIndex(to: Answer.headroom)
        // One reservation, the pieces copied into it (rather than a checked write per piece).
        body.writeWithUnsafeMutableBytes(minimumWritableBytes: text.maximumCount) { free in
            var written = 0
            text.write { piece in
                UnsafeMutableRawBufferPointer(rebasing: free[written..<(written + piece.count)]).copyMemory(from: piece)
                written += piece.count
            }
            return written
        }
        return Answer(status: .ok, contentType: "application/json", body: body)
    }

    /// A GeoJSON object (already a Foundation tree), as `application/geo+json`.
    static func geoJSON(_ object: [String: Any]) -> Answer {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return problem(.internalError("could not encode the answer")) }
        return body(data, status: .ok, contentType: "application/geo+json")
    }

    /// A problem in the language the request asks for, unless the problem already has one.
    static func problem(_ problem: Problem, acceptLanguage: String?) -> Answer {
        Responses.problem(problem.localized(to: problem.language ?? language(acceptLanguage: acceptLanguage)))
    }

    static func problem(_ problem: Problem) -> Answer {
        body(
            encode(problem) ?? Data("{}".utf8), status: HTTPResponse.Status(code: problem.status),
            contentType: Problem.mediaType)
    }

    /// JSON with the CLI's formatting.
    static func encode(_ value: some Encodable) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try? encoder.encode(value)
    }

    static func body(_ data: Data, status: HTTPResponse.Status, contentType: String) -> Answer {
        Answer(status: status, contentType: contentType, body: ByteBuffer(bytes: data))
    }

    /// The answers to a batch as an NDJSON stream, written in chunks of about 64 KiB as they
    /// are computed; past `timeLimit` (counted from here) it stops after the chunk written,
    /// with a last line saying how many points were answered.
    static func batch(
        _ items: [SectorBatchEndpoint.Item], target: SectorBatchEndpoint.Target, timeLimit: Duration
    ) -> Response {
        let deadline = ContinuousClock.now + timeLimit
        let body = ResponseBody { writer in
            var chunk = ByteBuffer()
            for (index, item) in items.enumerated() {
                chunk.writeBytes(target.answerLine(item))
                guard chunk.readableBytes >= 65_536 || index == items.count - 1 else { continue }
                try await writer.write(chunk)
                chunk.clear()
                if index < items.count - 1 && ContinuousClock.now > deadline {
                    try await writer.write(
                        ByteBuffer(
                            bytes: SectorBatchEndpoint.timeLimitLine(
                                answered: index + 1, of: items.count, limit: timeLimit)))
                    break
                }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: SectorBatchEndpoint.answerMediaType], body: body)
    }

    /// The language of problems for a request with this `Accept-Language`: the first of es, eu,
    /// en in it, else English.
    static func language(acceptLanguage: String?) -> Language {
        acceptLanguage.flatMap(Language.preferred(acceptLanguage:)) ?? .en
    }
}

/// Turns every error that escapes a route (Hummingbird's own 404 for an unknown path, 405, ...)
/// into a problem+json body, so that a client parses one error format.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            var response = Responses.problem(problem, acceptLanguage: request.headers[.acceptLanguage]).response
            // Fixes, events and hooks need the shared store; a client (or nginx) may try again.
            if problem.type == Problem.storeUnavailable("").type { response.headers[.retryAfter] = "1" }
            return response
        } catch let error as HTTPError {
            let language = Responses.language(acceptLanguage: request.headers[.acceptLanguage])
            if error.status == .notFound {
                // A documented path asked with another method: 405 with the one it takes.
                // (A documented method that is not routed, such as the hooks without a tracking
                // store, stays a 404.)
                let methods = EndpointDescription.all.filter { $0.path == request.uri.path }.map(\.method)
                let asked = request.method == .head ? "get" : request.method.rawValue.lowercased()
                if !methods.isEmpty, !methods.contains(asked) {
                    // A GET endpoint also answers HEAD.
                    let method = methods.map { $0 == "get" ? "GET, HEAD" : $0.uppercased() }.joined(separator: ", ")
                    var response = Responses.problem(
                        Problem.methodNotAllowed(
                            path: request.uri.path, method: request.method.rawValue, allowed: method
                        )
                        .localized(to: language)
                    ).response
                    response.headers[.allow] = method
                    return response
                }
                return Responses.problem(Problem.notFound(path: request.uri.path).localized(to: language)).response
            }
            return Responses.problem(
                Problem(
                    type: "/problems/http-\(error.status.code)", title: error.status.reasonPhrase,
                    status: error.status.code, detail: error.body ?? error.status.reasonPhrase)
            ).response
        }
    }
}
