/// A link of the OGC API documents (RFC 8288's target, relation and media type), written into
/// both the JSON and the HTML views.
public struct OGCLink: Sendable, Equatable {
    public var href: String
    public var rel: String
    public var type: String
    public var title: String?

    public init(href: String, rel: String, type: String, title: String? = nil) {
        self.href = href
        self.rel = rel
        self.type = type
        self.title = title
    }

    /// `pairs` as a query string (with its `?`, empty when there are none), each name and
    /// value percent-encoded but for RFC 3986's unreserved characters.
    static func query(_ pairs: [(name: String, value: String)]) -> String {
        guard !pairs.isEmpty else { return "" }
        return "?" + pairs.map { "\(encoded($0.name))=\(encoded($0.value))" }.joined(separator: "&")
    }

    /// `text` percent-encoded as a path segment or query component.
    static func encoded(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return out
    }
}
