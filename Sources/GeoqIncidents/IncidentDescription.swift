import Foundation

/// Turns an incident's HTML description into plain text as SPEC §3 asks: every tag stripped,
/// entities decoded (`&nbsp;`, `&aacute;`, `&#233;`, `&#xE9;` ...), the sub-headings "Tramo
/// comprendido", "Desvío", "Finalización" and "Observaciones" each on its own line ending with ":",
/// blank runs collapsed; an empty description reads "Sin descripción".
public enum IncidentDescription {
    public static let empty = "Sin descripción"
    public static let subheadings = ["Tramo comprendido", "Desvío", "Finalización", "Observaciones"]

    public static func clean(_ html: String?) -> String {
        guard let html else { return empty }
        var text = decodeEntities(stripTags(html))
        text = text.replacingAll("\u{00A0}", with: " ")
        for heading in subheadings { text = isolate(heading, in: text) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        }.filter { !$0.isEmpty }
        return lines.isEmpty ? empty : lines.joined(separator: "\n")
    }

    /// Removes tags; block-level breaks (`<br>`, `<p>`, `<div>`, `<li>`, `<tr>`) become new lines.
    /// Comments and `<script>`/`<style>` bodies go whole.
    static func stripTags(_ html: String) -> String {
        var out = ""
        var i = html.startIndex
        while i < html.endIndex {
            let c = html[i]
            guard c == "<" else {
                out.append(c)
                i = html.index(after: i)
                continue
            }
            if html[i...].hasPrefix("<!--") {
                i = html[i...].range(of: "-->")?.upperBound ?? html.endIndex
                continue
            }
            guard let close = html[i...].firstIndex(of: ">") else {
                out.append(contentsOf: html[i...])  // a lone "<" is text
                break
            }
            let tag = html[html.index(after: i)..<close].lowercased()
            let name = tag.drop(while: { $0 == "/" }).prefix(while: { $0.isLetter || $0.isNumber })
            if ["script", "style"].contains(String(name)), !tag.hasPrefix("/") {
                let end = "</\(name)"
                i =
                    html[close...].range(of: end, options: .caseInsensitive).map {
                        html[$0.upperBound...].firstIndex(of: ">").map { html.index(after: $0) } ?? html.endIndex
                    } ?? html.endIndex
                continue
            }
            if ["br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "ul", "ol", "table"].contains(String(name)) {
                out.append("\n")
            } else {
                out.append(" ")
            }
            i = html.index(after: close)
        }
        return out
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
        guard text.contains("&") else { return text }
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            guard text[i] == "&", let semicolon = text[i...].prefix(12).firstIndex(of: ";") else {
                out.append(text[i])
                i = text.index(after: i)
                continue
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
            if let decoded {
                out += decoded
                i = text.index(after: semicolon)
            } else {
                out.append("&")
                i = text.index(after: i)
            }
        }
        return out
    }

    /// Puts `heading` on its own line, ending with ":" (an existing ":" after it is absorbed).
    static func isolate(_ heading: String, in text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let range = rest.range(of: heading, options: .caseInsensitive) {
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
