/// An element's start tag, as ``XMLStream`` hands it to an ``XMLStreamHandler``.
public struct XMLStartTag: Sendable {
    /// The name as written, with its prefix (`georss:point`).
    public var qualifiedName: String
    /// The name without its prefix (`point`).
    public var localName: String
    /// The prefix (`georss`), or "" for none.
    public var prefix: String
    /// The namespace the element is in (`http://www.georss.org/georss`), or "" for none.
    public var namespaceURI: String
    /// 1-based line where the start tag ends (where a SAX parser reports it).
    public var line: Int
    /// Attributes by their names as written, namespace declarations (`xmlns:georss`) included;
    /// entity and character references in the values are replaced.
    public var attributes: [String: String]
}

/// What an XML reader does with the document's events, in document order.
///
/// An empty element (`<a/>`) gives a start and an end. Text and CDATA come through
/// ``characters(_:)``, possibly in several pieces per element; comments, processing instructions
/// and the DOCTYPE do not come through at all, nor do references to entities declared in a DTD
/// (left unexpanded, see ``XMLStream``).
public protocol XMLStreamHandler: AnyObject {
    func startElement(_ tag: XMLStartTag)
    func characters(_ text: String)
    func endElement()
    /// Checked after every event: true stops reading (the handler found what it needed, or an
    /// error of its own, which it keeps to report).
    var stopsReading: Bool { get }
}
