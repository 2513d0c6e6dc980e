import Foundation

/// A hook URL that names a Redis stream: `redis://HOST[:PORT]?stream=NAME[&maxlen=N]`. Its
/// events are appended to the stream (`XADD`) instead of POSTed; the stream is trimmed to about
/// `maxlen` entries when given. Redis URLs put a database number in the path; only the default
/// database (none, or `/0`) is written to.
public struct RedisStreamAddress: Sendable, Hashable {
    public static let defaultPort = 6379
    public var stream: String
    public var maxLength: Int?

    public init(stream: String, maxLength: Int? = nil) {
        self.stream = stream
        self.maxLength = maxLength
    }

    /// The stream `url` names; nil when `url` is not a `redis://` URL.
    public init?(_ url: String) throws(RedisStreamAddress.Problem) {
        guard let parts = URLComponents(string: url), parts.scheme?.lowercased() == "redis" else { return nil }
        guard ["", "/", "/0"].contains(parts.path) else {
            throw Problem(message: "a redis:// url writes to the default database only (no path or /0), got \"\(url)\"")
        }
        var stream: String?
        maxLength = nil
        for item in parts.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("stream", let name?) where !name.isEmpty && stream == nil: stream = name
            case ("maxlen", let value?) where Int(value).map({ $0 > 0 }) == true && maxLength == nil:
                maxLength = Int(value)
            default:
                throw Problem(
                    message:
                        "a redis:// url takes stream=NAME and maxlen=N (a positive number of entries) once each, got \"\(url)\""
                )
            }
        }
        guard let stream else {
            throw Problem(message: "a redis:// url names its stream: ?stream=NAME, got \"\(url)\"")
        }
        self.stream = stream
    }

    public struct Problem: Error, Sendable, Hashable {
        public var message: String
    }
}
