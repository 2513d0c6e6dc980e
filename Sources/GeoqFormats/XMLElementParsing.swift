import Foundation
import GeoqXML

/// The plumbing shared by the XML readers of feeds and point features (``GeoRSSFeedReader``,
/// ``GeoRSSPointReader``, ``ServicesXMLReader``): a stack of open elements with their text, the
/// first error, and the translation of ``XMLSyntaxError``s into ``FormatError``s with a line.
///
/// Subclasses override ``didOpen(_:attributes:)`` and ``didClose(_:)``. Not Sendable: one
/// instance per parse, on the calling thread.
class XMLElementParsing: XMLParseOutcome {
    /// An open element.
    struct Frame {
        /// The name as written, with its prefix (`georss:point`).
        var qualifiedName: String
        /// The name without its prefix (`point`).
        var localName: String
        /// The prefix (`georss`), or "" for none.
        var prefix: String
        /// What the element's namespace (else its prefix) says it is.
        var vocabulary: FeedVocabulary
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
    private(set) var sawRoot = false

    init(source: String) {
        self.source = source
    }

    /// Parses `data` with `handler`; throws the handler's first error, or a syntax error naming
    /// the line. `expected` names the document in messages ("an Atom or RSS feed"). Shared by
    /// every XML reader, KML's included.
    static func run(_ handler: some XMLParseOutcome, data: Data, expected: String) throws(FormatError) {
        guard !data.isEmpty else {
            throw FormatError(
                .invalidSyntax, file: handler.source, line: 1, message: "file is empty (expected \(expected))")
        }
        try finish(handler, expected: expected) { () throws(XMLSyntaxError) in
            try XMLStream.read(data, source: handler.source, into: handler)
        }
    }

    /// Parses the file open at `fileDescriptor` in chunks (the document is never held whole).
    static func run(_ handler: some XMLParseOutcome, fileDescriptor: Int32, expected: String) throws(FormatError) {
        try finish(handler, expected: expected) { () throws(XMLSyntaxError) in
            try XMLStream.read(fileDescriptor: fileDescriptor, source: handler.source, into: handler)
        }
    }

    private static func finish(
        _ handler: some XMLParseOutcome, expected: String, parse: () throws(XMLSyntaxError) -> Void
    ) throws(FormatError) {
        do {
            try parse()
        } catch {
            // The handler's own error came first in the document: the reader stopped there.
            if let failure = handler.failure { throw failure }
            throw FormatError(.invalidSyntax, file: handler.source, line: error.line, message: error.message)
        }
        if let failure = handler.failure { throw failure }
        guard handler.sawRoot else {
            throw FormatError(
                .invalidSyntax, file: handler.source, message: "no XML element found (expected \(expected))")
        }
    }

    // MARK: For subclasses

    /// Called after `frame` was pushed (it is `stack.last`); the root element has `stack.count == 1`.
    func didOpen(_ frame: Frame, attributes: [String: String]) {}

    /// Called after `frame` was popped (its parent, if any, is `stack.last`).
    func didClose(_ frame: Frame) {}

    /// Records the first error; reading stops at once.
    func fail(_ error: FormatError) {
        if failure == nil { failure = error }
    }

    // MARK: XMLStreamHandler

    var stopsReading: Bool { failure != nil }

    func startElement(_ tag: XMLStartTag) {
        sawRoot = true
        if !stack.isEmpty { stack[stack.count - 1].hasChildElements = true }
        let frame = Frame(
            qualifiedName: tag.qualifiedName, localName: tag.localName, prefix: tag.prefix,
            vocabulary: FeedVocabulary(prefix: tag.prefix, namespaceURI: tag.namespaceURI), line: tag.line)
        stack.append(frame)
        didOpen(frame, attributes: tag.attributes)
    }

    func characters(_ text: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += text
    }

    func endElement() {
        guard let frame = stack.popLast() else { return }
        didClose(frame)
    }
}

/// What an XML reader's handler reports once reading stops: the first error it raised itself,
/// and whether any element was seen.
protocol XMLParseOutcome: XMLStreamHandler {
    var source: String { get }
    var failure: FormatError? { get }
    var sawRoot: Bool { get }
}
