/// An error answer of the HTTP API: an RFC 9457 "problem detail" (`application/problem+json`).
///
/// `type` is a URI reference naming the kind of problem (relative, under `/problems/`), `title`
/// its short human summary (the same for every problem of the type), `detail` what was wrong
/// with this request; `parameter` (an extension member) names the query parameter or body
/// field at fault, so that a client can point at it, and `line` or `feature` where in a batch
/// body.
public struct Problem: Error, Codable, Hashable, Sendable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    public var parameter: String?
    /// A stable code for the problem where the domain has one (a refused ticket's
    /// `beyond-max-stay`, say), the same as the command line's JSON errors.
    public var code: String?
    /// The line of a batch body at fault (NDJSON or CSV, from 1).
    public var line: Int?
    /// The feature of a batch body at fault (a FeatureCollection's, from 1).
    public var feature: Int?

    public init(
        type: String, title: String, status: Int, detail: String, parameter: String? = nil, code: String? = nil,
        line: Int? = nil, feature: Int? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.parameter = parameter
        self.code = code
        self.line = line
        self.feature = feature
    }

    /// The media type of a problem body.
    public static let mediaType = "application/problem+json"

    /// A required query parameter is absent.
    public static func missing(_ parameter: String, _ detail: String) -> Problem {
        Problem(
            type: "/problems/missing-parameter", title: "A required parameter is missing", status: 400,
            detail: detail, parameter: parameter)
    }

    /// A parameter is present but cannot be read (not a number, not UTF-8, ...).
    public static func invalid(_ parameter: String, _ detail: String) -> Problem {
        Problem(
            type: "/problems/invalid-parameter", title: "A parameter is not valid", status: 400, detail: detail,
            parameter: parameter)
    }

    /// A number is readable but outside the range the parameter allows.
    public static func outOfRange(_ parameter: String, _ detail: String) -> Problem {
        Problem(
            type: "/problems/out-of-range", title: "A parameter is out of range", status: 400, detail: detail,
            parameter: parameter)
    }

    /// A layer name the service does not hold (or not of the kind the endpoint needs).
    public static func unknownLayer(_ name: String, kind: String, known: [String]) -> Problem {
        Problem(
            type: "/problems/unknown-layer", title: "No such layer", status: 404,
            detail: "no \(kind) layer named \"\(name)\"; \(kind) layers: \(known.joined(separator: ", "))",
            parameter: "layer")
    }

    /// A request body that cannot be read: not UTF-8, not JSON, not points (`line` or
    /// `feature` says where).
    public static func malformedBody(_ detail: String, line: Int? = nil, feature: Int? = nil) -> Problem {
        Problem(
            type: "/problems/malformed-body", title: "The request body cannot be read", status: 400, detail: detail,
            parameter: "body", line: line, feature: feature)
    }

    /// A body of a media type the endpoint does not read.
    public static func unsupportedMediaType(_ got: String?, accepted: [String]) -> Problem {
        Problem(
            type: "/problems/unsupported-media-type", title: "The body's media type is not accepted", status: 415,
            detail:
                "Content-Type \(got.map { "\"\($0)\"" } ?? "missing"); send one of \(accepted.joined(separator: ", "))",
            parameter: "Content-Type")
    }

    /// A body over the service's size limit.
    public static func bodyTooLarge(limit: Int) -> Problem {
        Problem(
            type: "/problems/body-too-large", title: "The request body is too large", status: 413,
            detail: "the body is over \(limit) bytes, this service's limit (geoq serve --max-body-bytes)",
            parameter: "body")
    }

    /// A batch of more points than the service answers in one request.
    public static func batchTooLarge(count: Int, limit: Int) -> Problem {
        Problem(
            type: "/problems/batch-too-large", title: "The batch holds too many points", status: 413,
            detail: "the batch holds \(count) points or more; at most \(limit) per request (geoq serve --max-batch)",
            parameter: "body")
    }

    /// No route answers this path.
    public static func notFound(path: String) -> Problem {
        Problem(type: "/problems/not-found", title: "No such endpoint", status: 404, detail: "nothing answers \(path)")
    }

    /// A documented path asked with a method it does not take.
    public static func methodNotAllowed(path: String, method: String, allowed: String) -> Problem {
        Problem(
            type: "/problems/method-not-allowed", title: "Method not allowed", status: 405,
            detail: "\(path) takes \(allowed), not \(method)")
    }

    /// Something failed on the service's side.
    public static func internalError(_ detail: String) -> Problem {
        Problem(type: "/problems/internal", title: "Internal error", status: 500, detail: detail)
    }

    /// The service has no data loaded yet (or its last load failed).
    public static func notReady(_ detail: String) -> Problem {
        Problem(type: "/problems/not-ready", title: "The service is not ready", status: 503, detail: detail)
    }
}
