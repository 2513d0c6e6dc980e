import Foundation

/// Turns an incident's HTML description into plain text as SPEC §3 asks: every tag stripped,
/// entities decoded (`&nbsp;`, `&aacute;`, `&#233;`, `&#xE9;` ...), the sub-headings "Tramo
/// comprendido", "Desvío", "Finalización" and "Observaciones" each on its own line ending with ":",
/// blank runs collapsed; an empty description reads "Sin descripción".
public enum IncidentDescription {
    public static let empty = "Sin descripción"
    public static let subheadings = ["Tramo comprendido", "Desvío", "Finalización", "Observaciones"]
    /// The ASCII start of each sub-heading, lowercased: a text without it cannot hold the heading.
    private static let subheadingMarkers = subheadings.map { Array($0.lowercased().utf8.prefix { $0 < 0x80 }) }

    private static func contains(_ bytes: [UInt8], _ marker: [UInt8]) -> Bool {
        guard let first = marker.first, bytes.count >= marker.count else { return marker.isEmpty }
        for start in 0...(bytes.count - marker.count) where bytes[start] == first {
            if bytes[start..<start + marker.count].elementsEqual(marker) { return true }
        }
        return false
    }

    public static func clean(_ html: String?) -> String {
        guard let html else { return empty }
        return DescriptionBytes.clean(html) ?? cleanByCharacters(html)
    }

    /// The general path, for the text ``DescriptionBytes`` leaves (letters beyond Latin-1,
    /// combining marks, CR): the same rules on characters, with Foundation's search where the
    /// text is not Latin-1.
    static func cleanByCharacters(_ html: String) -> String {
        var text = decodeEntities(stripTags(html))
        // The scalar scans below are cheap guards: feeds carry thousands of descriptions, and
        // most have no no-break space and only some of the sub-headings.
        if text.unicodeScalars.contains("\u{00A0}") { text = text.replacingAll("\u{00A0}", with: " ") }
        let folded = text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }  // ASCII letters lowercased
        for (heading, marker) in zip(subheadings, subheadingMarkers) where contains(folded, marker) {
            text = isolate(heading, in: text)
        }
        // Below U+0300 and without CR every scalar is a character of its own: the blank runs can
        // be collapsed on bytes. Otherwise characters decide (a combining mark after a space, or
        // CR LF, is one character that is no blank).
        if text.unicodeScalars.allSatisfy({ $0.value < 0x300 && $0 != "\r" }) { return collapsingBlanks(text) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        }.filter { !$0.isEmpty }
        return lines.isEmpty ? empty : lines.joined(separator: "\n")
    }

    /// Lines without their blank runs (spaces, tabs), blank lines dropped; on bytes.
    private static func collapsingBlanks(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let words = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
            guard !words.isEmpty else { continue }
            if !out.isEmpty { out.append(0x0A) }
            for (n, word) in words.enumerated() {
                if n > 0 { out.append(0x20) }
                out.append(contentsOf: word)
            }
        }
        return out.isEmpty ? empty : String(decoding: out, as: UTF8.self)
    }

    /// Removes tags; block-level breaks (`<br>`, `<p>`, `<div>`, `<li>`, `<tr>`) become new lines.
    /// Comments and `<script>`/`<style>` bodies go whole.
    static func stripTags(_ html: String) -> String {
        rewritingEach(UInt8(ascii: "<"), in: html) { i, out in
            if html.utf8[i...].starts(with: "<!--".utf8) {
                return html[i...].range(of: "-->")?.upperBound ?? html.endIndex
            }
            guard let close = html.utf8[i...].firstIndex(of: UInt8(ascii: ">")) else {
                out.append(contentsOf: html[i...])  // a lone "<" is text
                return html.endIndex
            }
            let tag = asciiLowercased(html[html.index(after: i)..<close])
            let name = tagName(tag)
            if name == "script" || name == "style", !tag.hasPrefix("/") {
                let end = "</\(name)"
                return html[close...].range(of: end, options: .caseInsensitive).map {
                    html[$0.upperBound...].firstIndex(of: ">").map { html.index(after: $0) } ?? html.endIndex
                } ?? html.endIndex
            }
            if lineBreakingTags.contains(name) {
                out.append("\n")
            } else {
                out.append(" ")
            }
            return html.index(after: close)
        }
    }

    /// `text` copied with each part that starts at a `marker` byte (an ASCII character) rewritten:
    /// the text between markers goes over in one run (UTF-8 indices are String indices); at a
    /// marker, `rewrite` appends what the part becomes and returns where the text resumes.
    private static func rewritingEach(
        _ marker: UInt8, in text: String, _ rewrite: (_ marker: String.Index, _ out: inout String) -> String.Index
    ) -> String {
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            guard text.utf8[i] == marker else {
                let next = text.utf8[i...].firstIndex(of: marker) ?? text.endIndex
                out += text[i..<next]
                i = next
                continue
            }
            i = rewrite(i, &out)
        }
        return out
    }

    static let lineBreakingTags: Set<String> = [
        "br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "ul", "ol", "table",
    ]

    /// The element name a tag's text starts with (after a closing "/"): its letters and digits.
    private static func tagName(_ tag: String) -> String {
        guard tag.utf8.allSatisfy({ $0 < 0x80 }) else {
            return String(tag.drop(while: { $0 == "/" }).prefix(while: { $0.isLetter || $0.isNumber }))
        }
        let isLetterOrDigit = { (b: UInt8) in
            (0x61...0x7A).contains(b) || (0x41...0x5A).contains(b) || (0x30...0x39).contains(b)
        }
        return String(
            decoding: tag.utf8.drop(while: { $0 == UInt8(ascii: "/") }).prefix(while: isLetterOrDigit), as: UTF8.self)
    }

    /// `lowercased()` without its Unicode tables when the text is ASCII, as tags are.
    private static func asciiLowercased(_ text: Substring) -> String {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.lowercased() }
        return String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// A Latin-1 scalar's lowercase (A-Z, À-Þ but ×), as a case-insensitive comparison folds it.
    private static func latin1Folded(_ scalar: Unicode.Scalar) -> UInt32 {
        let v = scalar.value
        return (0x41...0x5A).contains(v) || ((0xC0...0xDE).contains(v) && v != 0xD7) ? v + 0x20 : v
    }

    /// The first case-insensitive occurrence of `folded` (scalars folded by ``latin1Folded(_:)``)
    /// in Latin-1 `text`.
    private static func latin1Range(of folded: [UInt32], in text: Substring) -> Range<String.Index>? {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        while start < scalars.endIndex {
            var i = start
            var matched = 0
            while matched < folded.count, i < scalars.endIndex, latin1Folded(scalars[i]) == folded[matched] {
                matched += 1
                i = scalars.index(after: i)
            }
            if matched == folded.count { return start..<i }
            start = scalars.index(after: start)
        }
        return nil
    }

    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
        "aacute": "á", "eacute": "é", "iacute": "í", "oacute": "ó", "uacute": "ú", "Aacute": "Á", "Eacute": "É",
        "Iacute": "Í", "Oacute": "Ó", "Uacute": "Ú", "ntilde": "ñ", "Ntilde": "Ñ", "uuml": "ü", "Uuml": "Ü",
        "agrave": "à", "egrave": "è", "ograve": "ò", "ccedil": "ç", "Ccedil": "Ç", "ordm": "º", "ordf": "ª",
        "iexcl": "¡", "iquest": "¿", "euro": "€", "deg": "°", "middot": "·", "laquo": "«", "raquo": "»",
        "ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "copy": "©", "reg": "®", "bull": "•",
    ]

    /// Decodes named and numeric character references; unknown ones stay as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        return rewritingEach(UInt8(ascii: "&"), in: text) { i, out in
            guard let semicolon = text[i...].prefix(12).firstIndex(of: ";") else {
                out.append(text[i])
                return text.index(after: i)
            }
            let body = text[text.index(after: i)..<semicolon]
            var decoded: String?
            if body.hasPrefix("#x") || body.hasPrefix("#X") {
                decoded = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map {
                    String(Character($0))
                }
            } else if body.hasPrefix("#") {
                decoded = UInt32(body.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else {
                decoded = named[String(body)]
            }
            guard let decoded else {
                out.append("&")
                return text.index(after: i)
            }
            out += decoded
            return text.index(after: semicolon)
        }
    }

    /// Puts `heading` on its own line, ending with ":" (an existing ":" after it is absorbed).
    static func isolate(_ heading: String, in text: String) -> String {
        var out = ""
        var rest = Substring(text)
        // Latin-1 text (Spanish, as the feeds write it) is searched here; anything else by
        // Foundation, whose case-insensitive search also knows canonical equivalence.
        let latin1 = text.unicodeScalars.allSatisfy { $0.value < 0x100 }
        let headingScalars = heading.unicodeScalars.map(latin1Folded)
        func find(in rest: Substring) -> Range<String.Index>? {
            latin1
                ? latin1Range(of: headingScalars, in: rest) : rest.range(of: heading, options: .caseInsensitive)
        }
        while let range = find(in: rest) {
            // Only whole words: not inside a longer word.
            let before = range.lowerBound > rest.startIndex ? rest[rest.index(before: range.lowerBound)] : " "
            let after = range.upperBound < rest.endIndex ? rest[range.upperBound] : " "
            guard !before.isLetter, !after.isLetter else {
                out += rest[..<range.upperBound]
                rest = rest[range.upperBound...]
                continue
            }
            out += rest[..<range.lowerBound]
            out += "\n\(heading):\n"
            var tail = rest[range.upperBound...]
            while let first = tail.first, first == " " || first == ":" || first == "\u{00A0}" {
                tail = tail.dropFirst()
            }
            rest = tail
        }
        return out + rest
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
