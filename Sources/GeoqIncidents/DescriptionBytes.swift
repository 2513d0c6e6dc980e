/// ``IncidentDescription``'s rules on UTF-8 bytes, for the text feeds carry: Latin-1 (Spanish)
/// and the common punctuation beyond it (quotes, dashes, "…", "€").
///
/// In such text, without CR, every scalar is a character of its own, no scalar is canonically
/// equivalent to another, and case folding maps letters to letters of the same text; so a scan
/// of bytes finds what the character-based rules find, and the result is the same string. Any
/// other scalar, in the HTML or decoded from a numeric reference, makes ``clean(_:)`` answer nil
/// and the description is cleaned on characters (``IncidentDescription/cleanByCharacters(_:)``).
///
/// Three linear passes over buffers: tags stripped; entities decoded and no-break spaces made
/// spaces; sub-headings isolated while blank runs are folded.
enum DescriptionBytes {
    /// The cleaned description, or nil when the text is not one the byte rules cover.
    static func clean(_ html: String) -> String? {
        var html = html
        return html.withUTF8 { bytes -> String? in
            guard isCovered(bytes) else { return nil }
            let stripped = stripTags(bytes)
            let decoded: [UInt8]
            if stripped.contains(ampersand) || stripped.contains(0xC2) {
                guard let text = decodeEntities(stripped) else { return nil }
                decoded = text
            } else {
                decoded = stripped
            }
            let folded = isolatingHeadingsFoldingBlanks(decoded)
            return folded.isEmpty ? IncidentDescription.empty : String(decoding: folded, as: UTF8.self)
        }
    }

    // MARK: Which text is covered

    /// Latin-1 but CR, General Punctuation up to U+2027 and from U+2030 (no spaces, joiners or
    /// line separators), and the currency signs.
    static func isCovered(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x0D: false
        case 0..<0x100, 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20BF: true
        default: false
        }
    }

    private static func isCovered(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                if b == 0x0D { return false }
                i += 1
                continue
            }
            let (scalar, length) = decodeScalar(bytes, at: i)
            guard isCovered(scalar) else { return false }
            i += length
        }
        return true
    }

    /// The scalar starting at `i` of valid UTF-8, and its length in bytes.
    @inline(__always)
    private static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let b = UInt32(bytes[i])
        if b < 0x80 { return (b, 1) }
        if b < 0xE0 { return ((b & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), 2) }
        if b < 0xF0 {
            return ((b & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F), 3)
        }
        let tail = UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F)
        return ((b & 0x07) << 18 | tail, 4)
    }

    private static func isLetter(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return (0x41...0x5A).contains(scalar) || (0x61...0x7A).contains(scalar) }
        return Unicode.Scalar(scalar).map { Character($0).isLetter } ?? false
    }

    private static let ampersand = UInt8(ascii: "&")
    private static let less = UInt8(ascii: "<")
    private static let greater = UInt8(ascii: ">")
    private static let slash = UInt8(ascii: "/")
    private static let space = UInt8(ascii: " ")
    private static let newline = UInt8(ascii: "\n")

    // MARK: Tags

    private static func stripTags(_ html: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(html.count)
        var i = 0
        while i < html.count {
            guard let open = firstIndex(of: less, in: html, from: i) else {
                out.append(contentsOf: html[i...])
                break
            }
            out.append(contentsOf: html[i..<open])
            i = open
            if hasPrefix("<!--", in: html, at: i) {
                // From the "<" itself, as the character rules search: "<!-->" is a whole comment.
                i =
                    firstIndex(of: Array("-->".utf8), in: html, from: i, caseInsensitive: false).map { $0 + 3 }
                    ?? html.count
                continue
            }
            guard let close = firstIndex(of: greater, in: html, from: i) else {
                out.append(contentsOf: html[i...])  // a lone "<" is text
                break
            }
            let kind = tagKind(html, from: i + 1, to: close)
            if let ending = kind.ending, html[i + 1] != slash {
                i =
                    firstIndex(of: ending, in: html, from: close, caseInsensitive: true).map {
                        firstIndex(of: greater, in: html, from: $0 + ending.count).map { $0 + 1 } ?? html.count
                    } ?? html.count
                continue
            }
            out.append(kind == .lineBreak ? newline : space)
            i = close + 1
        }
        return out
    }

    /// What a tag stands for here, by its element name.
    private enum TagKind: Equatable {
        case other, lineBreak
        /// `<script>` and `<style>` go with their bodies, up to this closing tag's start.
        case withBody(ending: [UInt8])

        var ending: [UInt8]? {
            if case .withBody(let ending) = self { ending } else { nil }
        }
    }

    /// Element names of interest, their (at most 8) bytes packed into an integer.
    private static let kindsByName: [(name: UInt64, kind: TagKind)] =
        IncidentDescription.lineBreakingTags.map { (packed($0.utf8), .lineBreak) }
        + ["script", "style"].map { (packed($0.utf8), .withBody(ending: Array("</\($0)".utf8))) }

    private static func packed(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The kind of the tag text `html[start..<end]` by its element name, read as the character
    /// rules read it: after any "/", its letters and digits, lowercased. A letter or digit
    /// beyond ASCII, or more than eight of them, make a name of no interest.
    private static func tagKind(_ html: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> TagKind {
        var i = start
        while i < end, html[i] == slash { i += 1 }
        var name: UInt64 = 0
        var length = 0
        while i < end {
            var b = html[i]
            if (0x41...0x5A).contains(b) {
                b |= 0x20
            } else if !(0x61...0x7A).contains(b), !(0x30...0x39).contains(b) {
                break
            }
            length += 1
            if length > 8 { return .other }
            name = name << 8 | UInt64(b)
            i += 1
        }
        if i < end, html[i] >= 0x80 {
            let (scalar, _) = decodeScalar(html, at: i)
            if let s = Unicode.Scalar(scalar), Character(s).isLetter || Character(s).isNumber { return .other }
        }
        guard length > 0 else { return .other }
        return kindsByName.first { $0.name == name }?.kind ?? .other
    }

    private static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        while i < bytes.count {
            if bytes[i] == byte { return i }
            i += 1
        }
        return nil
    }

    private static func hasPrefix(_ prefix: StaticString, in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        let p = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        guard i + p.count <= bytes.count else { return false }
        for k in 0..<p.count where bytes[i + k] != p[k] { return false }
        return true
    }

    /// The first occurrence of ASCII `needle` from `start`, ASCII letters folded when asked.
    private static func firstIndex(
        of needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int, caseInsensitive: Bool
    ) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        let fold = { (b: UInt8) in caseInsensitive && (0x41...0x5A).contains(b) ? b | 0x20 : b }
        let folded = needle.map(fold)
        outer: for i in start...(bytes.count - needle.count) {
            for k in 0..<folded.count where fold(bytes[i + k]) != folded[k] { continue outer }
            return i
        }
        return nil
    }

    // MARK: Entities

    /// Character references decoded, no-break spaces (written or decoded) made spaces; nil when
    /// a reference decodes to a scalar the byte rules do not cover.
    private static func decodeEntities(_ text: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            let b = text[i]
            if b == 0xC2, text[i + 1] == 0xA0 {
                out.append(space)
                i += 2
                continue
            }
            guard b == ampersand else {
                out.append(b)
                i += 1
                continue
            }
            // The ";" must come within the 12 characters from the "&" (one scalar each here).
            var semicolon: Int?
            var j = i + 1
            var scalars = 1
            while j < text.count, scalars < 12 {
                if text[j] == UInt8(ascii: ";") {
                    semicolon = j
                    break
                }
                j += 1
                while j < text.count, text[j] & 0xC0 == 0x80 { j += 1 }
                scalars += 1
            }
            guard let semicolon else {
                out.append(ampersand)
                i += 1
                continue
            }
            switch reference(String(decoding: text[(i + 1)..<semicolon], as: UTF8.self)) {
            case .scalar(let scalar):
                guard isCovered(scalar.value) else { return nil }
                if scalar == "\u{00A0}" {
                    out.append(space)
                } else {
                    out.append(contentsOf: String(Character(scalar)).utf8)
                }
                i = semicolon + 1
            case .named(let value):
                out.append(contentsOf: value.utf8.elementsEqual("\u{00A0}".utf8) ? [space] : Array(value.utf8))
                i = semicolon + 1
            case nil:
                out.append(ampersand)
                i += 1
            }
        }
        return out
    }

    private enum Reference {
        case scalar(Unicode.Scalar)
        case named(String)
    }

    /// What the reference `&body;` stands for, read as the character rules read it.
    private static func reference(_ body: String) -> Reference? {
        if body.hasPrefix("#x") || body.hasPrefix("#X") {
            return UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map(Reference.scalar)
        }
        if body.hasPrefix("#") { return UInt32(body.dropFirst()).flatMap(Unicode.Scalar.init).map(Reference.scalar) }
        return IncidentDescription.named[body].map(Reference.named)
    }

    // MARK: Sub-headings and blanks

    /// Each sub-heading's bytes, ASCII letters lowercased and Latin-1 capitals (U+00C0-U+00DE but
    /// U+00D7) folded as ``foldedByte(_:at:)`` folds the text.
    private static let headings: [(name: [UInt8], folded: [UInt8])] = IncidentDescription.subheadings.map { heading in
        let bytes = Array(heading.utf8)
        return (bytes, bytes.indices.map { i in foldedByte(bytes, at: i) })
    }

    /// For each folded byte, the heading that starts with it, else -1 (no two start alike).
    private static let headingStarting: [Int] = {
        var table = [Int](repeating: -1, count: 256)
        for (h, heading) in headings.enumerated() {
            precondition(table[Int(heading.folded[0])] < 0, "two sub-headings start with the same letter")
            table[Int(heading.folded[0])] = h
        }
        return table
    }()

    @inline(__always)
    private static func foldedByte<C: RandomAccessCollection<UInt8>>(_ bytes: C, at i: C.Index) -> UInt8 {
        let b = bytes[i]
        if (0x41...0x5A).contains(b) { return b | 0x20 }
        // The second byte of À..Þ (C3 80 ... C3 9E) but × (C3 97).
        if (0x80...0x9E).contains(b), b != 0x97, i > bytes.startIndex, bytes[bytes.index(before: i)] == 0xC3 {
            return b + 0x20
        }
        return b
    }

    /// Every sub-heading that is a whole word goes on its own line, written as the SPEC writes it
    /// with ":" (spaces and colons after it absorbed); lines keep their words one space apart,
    /// blank lines are dropped.
    ///
    /// Each heading is found as the character rules find it, one heading at a time from the
    /// text's start: the search for a heading resumes after its previous occurrence, and an
    /// occurrence right where the search resumes counts as preceded by a space.
    private static func isolatingHeadingsFoldingBlanks(_ text: [UInt8]) -> [UInt8] {
        var folder = BlankFolder(capacity: text.count + 32)
        var resume = [Int](repeating: 0, count: headings.count)
        var i = 0
        text.withUnsafeBufferPointer { text in
            while i < text.count {
                let h = headingStarting[Int(foldedByte(text, at: i))]
                guard h >= 0, matches(headings[h].folded, in: text, at: i) else {
                    folder.append(text[i])
                    i += 1
                    continue
                }
                let end = i + headings[h].folded.count
                let letterBefore = i != resume[h] && isLetter(scalar(endingBefore: i, in: text))
                let letterAfter = end < text.count && isLetter(decodeScalar(text, at: end).0)
                resume[h] = end
                guard !letterBefore, !letterAfter else {
                    folder.append(text[i])  // inside a longer word: text, scanned on for other headings
                    i += 1
                    continue
                }
                folder.append(newline)
                for b in headings[h].name { folder.append(b) }
                folder.append(UInt8(ascii: ":"))
                folder.append(newline)
                i = end
                while i < text.count, text[i] == space || text[i] == UInt8(ascii: ":") { i += 1 }
                resume[h] = i
            }
        }
        return folder.out
    }

    private static func matches(_ folded: [UInt8], in text: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i + folded.count <= text.count else { return false }
        for k in 1..<folded.count where foldedByte(text, at: i + k) != folded[k] { return false }
        return true
    }

    private static func scalar(endingBefore i: Int, in text: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var start = i - 1
        while text[start] & 0xC0 == 0x80 { start -= 1 }
        return decodeScalar(text, at: start).0
    }

    /// Lines without their runs of spaces and tabs, blank lines dropped, written byte by byte.
    private struct BlankFolder {
        var out: [UInt8] = []
        private var lineHasWord = false
        private var spacePending = false

        init(capacity: Int) { out.reserveCapacity(capacity) }

        @inline(__always)
        mutating func append(_ b: UInt8) {
            switch b {
            case UInt8(ascii: "\n"):
                lineHasWord = false
                spacePending = false
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                spacePending = lineHasWord
            default:
                if !lineHasWord {
                    if !out.isEmpty { out.append(UInt8(ascii: "\n")) }
                    lineHasWord = true
                } else if spacePending {
                    out.append(UInt8(ascii: " "))
                }
                spacePending = false
                out.append(b)
            }
        }
    }
}
