import Foundation

/// What a notification says, as the map page's service worker reads it from a push message:
/// its title and text, the page address a click opens, and a tag (a later notification with
/// the same tag replaces the earlier on the phone).
public struct PushPayload: Codable, Sendable, Equatable {
    public var title: String
    public var body: String
    public var url: String
    public var tag: String

    public init(title: String, body: String, url: String, tag: String) {
        self.title = title
        self.body = body
        self.url = url
        self.tag = tag
    }

    /// The payload's JSON (sorted keys), as it is stored and, encrypted, sent.
    public var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }
}
