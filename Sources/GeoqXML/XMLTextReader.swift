import CLibXML2
import Foundation

/// The one owner of a libxml2 `xmlTextReader` handle: created for one document, read once on
/// the calling thread, freed in `deinit`. Not Sendable; nothing else sees the pointer.
final class XMLTextReader {
    /// See ``XMLStream`` for why these and no others.
    static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue)

    /// libxml2 sets up its global tables on first use; doing it once, before any thread can race
    /// to do it, is what its documentation asks of threaded programs.
    private static let initialized: Void = xmlInitParser()

    private let reader: xmlTextReaderPtr?
    /// The first error libxml2 reported through the callback.
    private var firstError: XMLSyntaxError?

    init(_ reader: xmlTextReaderPtr?) {
        Self.initialized
        self.reader = reader
        guard let reader else { return }
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { context, error in
                guard let context, let error else { return }
                Unmanaged<XMLTextReader>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if let reader { xmlFreeTextReader(reader) }
    }

    /// Hands every element and text node to `handler` until the end, an error, or the handler
    /// stops.
    func read(into handler: some XMLStreamHandler) throws(XMLSyntaxError) {
        guard let reader else {
            throw XMLSyntaxError(
                line: nil, column: nil, code: 0, reason: "the XML reader could not be created (out of memory?)",
                openElements: [])
        }
        var open: [String] = []
        var status: Int32 = 1
        while firstError == nil {
            status = xmlTextReaderRead(reader)
            guard status == 1, firstError == nil else { break }
            switch xmlTextReaderNodeType(reader) {
            case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                let tag = startTag(reader)
                handler.startElement(tag)
                if xmlTextReaderIsEmptyElement(reader) == 1 {
                    if !handler.stopsReading { handler.endElement() }
                } else {
                    open.append(tag.qualifiedName)
                }
            case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                open.removeLast()
                handler.endElement()
            case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
                Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
                if let value = xmlTextReaderConstValue(reader) { handler.characters(Self.string(value)) }
            default:
                break
            }
            if handler.stopsReading { return }
        }
        if let firstError { throw firstError }
        if status < 0 {
            let line = Int(xmlTextReaderGetParserLineNumber(reader))
            throw XMLSyntaxError(
                line: line > 0 ? line : nil, column: nil, code: 1, reason: "the document could not be read",
                openElements: open)
        }
    }

    private func startTag(_ reader: xmlTextReaderPtr) -> XMLStartTag {
        let node = xmlTextReaderCurrentNode(reader)
        var attributes: [String: String] = [:]
        if xmlTextReaderHasAttributes(reader) == 1 {
            while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                if let name = xmlTextReaderConstName(reader) {
                    attributes[Self.string(name)] = xmlTextReaderConstValue(reader).map(Self.string) ?? ""
                }
            }
            xmlTextReaderMoveToElement(reader)
        }
        return XMLStartTag(
            qualifiedName: xmlTextReaderConstName(reader).map(Self.string) ?? "",
            localName: xmlTextReaderConstLocalName(reader).map(Self.string) ?? "",
            prefix: xmlTextReaderConstPrefix(reader).map(Self.string) ?? "",
            namespaceURI: xmlTextReaderConstNamespaceUri(reader).map(Self.string) ?? "",
            line: node.map { Int(xmlGetLineNo($0)) } ?? Int(xmlTextReaderGetParserLineNumber(reader)),
            attributes: attributes)
    }

    private func record(_ error: xmlError) {
        // Warnings (a relative namespace URI...) do not make a document unreadable.
        guard firstError == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let code = Int(error.code)
        let message = error.message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines)
        var line = Int(error.line), column = Int(error.int2), openElements = Self.openElements(error)
        // An error inside an entity's replacement text comes from a parser of its own, with no
        // file and positions counted in that text: the document's position is the reference's.
        if error.file == nil, let reader {
            line = Int(xmlTextReaderGetParserLineNumber(reader))
            column = Int(xmlTextReaderGetParserColumnNumber(reader))
            openElements = []
        }
        firstError = XMLSyntaxError(
            line: line > 0 ? line : nil, column: column > 0 ? column : nil, code: code,
            reason: XMLSyntaxError.reason(code: code, libxml2Message: message ?? ""), openElements: openElements)
    }

    /// The elements the parser had open when it raised `error`: the reader hands nodes over a
    /// little behind the parser, so they are read from the parser's own position.
    private static func openElements(_ error: xmlError) -> [String] {
        let parserDomains = [XML_FROM_PARSER.rawValue, XML_FROM_NAMESPACE.rawValue].map(Int32.init)
        guard parserDomains.contains(error.domain), let context = error.ctxt else { return [] }
        var names: [String] = []
        var node = context.assumingMemoryBound(to: xmlParserCtxt.self).pointee.node
        while let current = node, current.pointee.type == XML_ELEMENT_NODE {
            var name = current.pointee.name.map(string) ?? ""
            if let prefix = current.pointee.ns?.pointee.prefix { name = string(prefix) + ":" + name }
            names.append(name)
            node = current.pointee.parent
        }
        return names.reversed()
    }

    private static func string(_ characters: UnsafePointer<xmlChar>) -> String {
        String(cString: characters)
    }
}
