import CLibXML2
import Foundation

/// Reads XML with libxml2's streaming reader (`xmlTextReader`), handing elements and text to an
/// ``XMLStreamHandler`` as they are read: memory stays flat however long the document is.
///
/// Safe on untrusted files:
/// - **No network** (`XML_PARSE_NONET`) and no DTD loaded.
/// - **No entity expansion in text**: references to entities declared in the document's DTD are
///   left unexpanded (they do not reach the handler), so an external entity
///   (`<!ENTITY x SYSTEM "file:///etc/passwd">`) is never read. Predefined entities (`&amp;`) and
///   character references (`&#233;`) are replaced as XML requires.
/// - **libxml2's size limits stay on** (no `XML_PARSE_HUGE`): they include its guard against
///   entity bombs (an entity expanding to gigabytes is an error) and cap one text run at 10 MB.
///   Documents of any length are read; only a single text node over 10 MB is refused.
/// - The encoding is the one the prolog declares (`encoding="ISO-8859-1"`), else UTF-8/UTF-16 by
///   the byte-order mark; the handler always gets Swift strings.
///
/// The first error stops the reading (namespace errors too, such as an undeclared prefix), and
/// is thrown as an ``XMLSyntaxError`` with its line and column and the elements open there.
public enum XMLStream {
    /// Reads `data`; `source` names the document in libxml2's own bookkeeping.
    public static func read(_ data: Data, source: String, into handler: some XMLStreamHandler)
        throws(XMLSyntaxError)
    {
        let result: Result<Void, XMLSyntaxError> = data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                return .failure(
                    XMLSyntaxError(
                        line: 1, column: nil, code: 4, reason: XMLSyntaxError.reason(code: 4, libxml2Message: ""),
                        openElements: []))
            }
            let reader = XMLTextReader(
                xmlReaderForMemory(
                    base.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count), source, nil,
                    XMLTextReader.options))
            return Result { () throws(XMLSyntaxError) in try reader.read(into: handler) }
        }
        try result.get()
    }

    /// Reads from an open file descriptor in chunks (the document is never held whole). The
    /// descriptor stays open: it is the caller's.
    public static func read(fileDescriptor: Int32, source: String, into handler: some XMLStreamHandler)
        throws(XMLSyntaxError)
    {
        let reader = XMLTextReader(xmlReaderForFd(fileDescriptor, source, nil, XMLTextReader.options))
        try reader.read(into: handler)
    }
}
