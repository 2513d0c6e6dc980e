import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The SAX plumbing shared by the XML readers of point features (``FallasAtomReader``,
/// ``ServicesXMLReader``): a stack of open elements with their text, the first error, and the
/// translation of `XMLParser` failures into ``FormatError``s with a line number.
///
/// Subclasses override ``didOpen(_:attributes:parser:)`` and ``didClose(_:parser:)``. Not
/// Sendable: one instance per parse, on the calling thread.
class XMLElementParsing: NSObject, XMLParserDelegate, XMLParseOutcome {
    /// An open element.
    struct Frame {
        /// The name as written, with its prefix (`georss:point`).
        var qualifiedName: String
        /// The name without its prefix (`point`).
        var localName: String
        /// The prefix (`georss`), or "" for none.
        var prefix: String
        /// 1-based line of the start tag.
        var line: Int
        var text = ""
        /// True once a child element opened inside this one.
        var hasChildElements = false
    }

    let source: String
    /// Open elements, the root first.
    private(set) var stack: [Frame] = []
    private(set) var failure: FormatError?
    private(set) var xmlError: (line: Int, column: Int, message: String)?
    private(set) var sawRoot = false

    init(source: String) {
        self.source = source
    }

    /// Parses `data` with `handler`; throws the handler's first error, or a syntax error naming
    /// the line. `expected` names the document in messages ("an Atom or RSS feed"). Shared by
    /// every XML reader, KML's included.
    static func run(_ handler: some XMLParserDelegate & XMLParseOutcome, data: Data, expected: String)
        throws(FormatError)
    {
        let source = handler.source
        guard !data.isEmpty else {
            throw FormatError(.invalidSyntax, file: source, line: 1, message: "file is empty (expected \(expected))")
        }
        try run(handler, parser: XMLParser(data: data), expected: expected)
    }

    /// Parses from `stream` in chunks (the document is never held whole).
    static func run(_ handler: some XMLParserDelegate & XMLParseOutcome, stream: InputStream, expected: String)
        throws(FormatError)
    {
        try run(handler, parser: XMLParser(stream: stream), expected: expected)
    }

    private static func run(
        _ handler: some XMLParserDelegate & XMLParseOutcome, parser: XMLParser, expected: String
    ) throws(FormatError) {
        let source = handler.source
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = handler
        // XMLParser holds its delegate weakly: `handler` is kept alive by the caller.
        let finished = parser.parse()
        if let failure = handler.failure { throw failure }
        if let xml = handler.xmlError {
            throw FormatError(
                .invalidSyntax, file: source, line: xml.line,
                message: "malformed XML at column \(xml.column): \(xml.message)")
        }
        if !finished || parser.parserError != nil {
            let line = parser.lineNumber
            throw FormatError(
                .invalidSyntax, file: source, line: line > 0 ? line : nil,
                message:
                    "malformed XML: \(parser.parserError.map { KMLParseHandler.describeXMLError($0) } ?? "parsing stopped")"
            )
        }
        guard handler.sawRoot else {
            throw FormatError(.invalidSyntax, file: source, message: "no XML element found (expected \(expected))")
        }
    }

    // MARK: For subclasses

    /// Called after `frame` was pushed (it is `stack.last`); the root element has `stack.count == 1`.
    func didOpen(_ frame: Frame, attributes: [String: String], parser: XMLParser) {}

    /// Called after `frame` was popped (its parent, if any, is `stack.last`).
    func didClose(_ frame: Frame, parser: XMLParser) {}

    /// Records the first error and stops the parse.
    func fail(_ error: FormatError, _ parser: XMLParser) {
        guard failure == nil else { return }
        failure = error
        parser.abortParsing()
    }

    // MARK: XMLParserDelegate

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        sawRoot = true
        if !stack.isEmpty { stack[stack.count - 1].hasChildElements = true }
        let prefix: String
        let local: String
        if let colon = elementName.firstIndex(of: ":") {
            prefix = String(elementName[..<colon])
            local = String(elementName[elementName.index(after: colon)...])
        } else {
            prefix = ""
            local = elementName
        }
        let frame = Frame(qualifiedName: elementName, localName: local, prefix: prefix, line: parser.lineNumber)
        stack.append(frame)
        didOpen(frame, attributes: attributeDict, parser: parser)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        guard failure == nil, let frame = stack.popLast() else { return }
        didClose(frame, parser: parser)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard xmlError == nil, failure == nil else { return }
        var message =
            (parseError as NSError).code == 201
            ? "undeclared namespace prefix (declare it on the root element, e.g. "
                + "xmlns:georss=\"http://www.georss.org/georss\")"
            : KMLParseHandler.describeXMLError(parseError)
        if !stack.isEmpty {
            message += " (open elements: " + stack.map { "<\($0.qualifiedName)>" }.joined(separator: " ") + ")"
        }
        xmlError = (parser.lineNumber, parser.columnNumber, message)
        parser.abortParsing()
    }
}

/// What an XML reader's parser delegate reports once parsing stops: the first error it raised
/// itself, the first error XMLParser reported (with line and column), and whether any element
/// was seen.
protocol XMLParseOutcome: AnyObject {
    var source: String { get }
    var failure: FormatError? { get }
    var xmlError: (line: Int, column: Int, message: String)? { get }
    var sawRoot: Bool { get }
}
