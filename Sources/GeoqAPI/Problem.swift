/// An error answer of the HTTP API: an RFC 9457 "problem detail" (`application/problem+json`).
///
/// `type` is a URI reference naming the kind of problem (relative, under `/problems/`), `title`
/// its short human summary (the same for every problem of the type), `detail` what was wrong
/// with this request; `parameter` (an extension member) names the query parameter or body
/// field at fault, so that a client can point at it.
public struct Problem: Error, Codable, Hashable, Sendable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    public var parameter: String?
    /// A stable code for the problem where the domain has one (a refused ticket's
    /// `beyond-max-stay`, say), the same as the command line's JSON errors.
    public var code: String?

    public init(type: String, title: String, status: Int, detail: String, parameter: String? = nil, code: String? = nil)
    {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.parameter = parameter
        self.code = code
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

    /// No route answers this path.
    public static func notFound(path: String) -> Problem {
        Problem(type: "/problems/not-found", title: "No such endpoint", status: 404, detail: "nothing answers \(path)")
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
