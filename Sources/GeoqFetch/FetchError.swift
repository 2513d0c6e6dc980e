/// Why a feed could not be fetched. Each kind is its own case, so that a failed download is
/// never mistaken for a bad feed (and so that the message says what to do).
public enum FetchError: Error, Hashable, Sendable, CustomStringConvertible {
    case badURL(String)
    case cannotConnect(url: String, reason: String)
    case timedOut(url: String, seconds: Double)
    case httpStatus(url: String, status: Int)
    /// The connection was cut with `missingBytes` of the announced body (Content-Length) still to come.
    case truncated(url: String, missingBytes: Int)
    case tooLarge(url: String, limit: Int)
    case unreadableFile(path: String, reason: String)

    /// A stable machine-readable code.
    public var code: String {
        switch self {
        case .badURL: "bad-url"
        case .cannotConnect: "cannot-connect"
        case .timedOut: "timed-out"
        case .httpStatus: "http-status"
        case .truncated: "truncated"
        case .tooLarge: "too-large"
        case .unreadableFile: "unreadable-file"
        }
    }

    public var description: String {
        switch self {
        case .badURL(let text): "'\(text)' is neither an http(s) URL nor a file"
        case .cannotConnect(let url, let reason): "cannot connect to \(url): \(reason)"
        case .timedOut(let url, let seconds): "\(url) did not answer within \(seconds) s"
        case .httpStatus(let url, let status): "\(url) answered HTTP \(status)"
        case .truncated(let url, let missing):
            "the connection to \(url) was cut with \(missing) bytes of the body still to come (truncated)"
        case .tooLarge(let url, let limit): "\(url) sent more than \(limit) bytes"
        case .unreadableFile(let path, let reason): "cannot read \(path): \(reason)"
        }
    }
}
