/// A document that is not well-formed XML, where libxml2 found it.
public struct XMLSyntaxError: Error, Sendable, Hashable {
    /// 1-based line and column of the error, when libxml2 knows them.
    public var line: Int?
    public var column: Int?
    /// libxml2's error code (an `xmlParserErrors` value).
    public var code: Int
    /// What is wrong, in words a person can act on.
    public var reason: String
    /// Qualified names of the elements open where the error was found, the root first.
    public var openElements: [String]

    /// `malformed XML at column 35: closing tag does not match the open element (open elements:
    /// <gpx> <trk>)`: everything but the file and line, which the reader's own error carries.
    public var message: String {
        var text = "malformed XML"
        if let column { text += " at column \(column)" }
        text += ": " + reason
        if !openElements.isEmpty {
            text += " (open elements: " + openElements.map { "<\($0)>" }.joined(separator: " ") + ")"
        }
        return text
    }

    /// The reason for a libxml2 error code, worded for the person who wrote the file; libxml2's
    /// own sentence for the codes not listed.
    static func reason(code: Int, libxml2Message: String) -> String {
        switch code {
        case 4: "the document is empty"
        case 5: "the document ends before all elements are closed (truncated file?)"
        case 9: "invalid character"
        case 23, 26, 27: "undefined or malformed entity (write a literal & as &amp;)"
        case 38, 39, 40, 41: "malformed attribute (attribute values must be quoted)"
        case 64, 65: "whitespace required (or text before the <?xml ...?> declaration)"
        case 68: "malformed name"
        case 73: "'>' expected"
        case 76: "closing tag does not match the open element"
        case 89: "an entity refers to itself or expands too far (entity loop or bomb)"
        case 201:
            "undeclared namespace prefix (declare it on the root element, e.g. "
                + "xmlns:georss=\"http://www.georss.org/georss\")"
        default:
            libxml2Message.isEmpty
                ? "XML parser error \(code)" : "\(libxml2Message) (XML parser error \(code))"
        }
    }
}
