/// Byte-to-text decoding the readers need, without relying on Foundation's encodings (whose
/// coverage differs between Darwin and Linux).
enum TextDecoding {
    /// Decodes `bytes` in `encoding`. UTF-8 errors become U+FFFD (validate first when that matters).
    static func decode(_ bytes: some Collection<UInt8>, as encoding: DBFEncoding) -> String {
        switch encoding {
        case .utf8:
            return String(decoding: bytes, as: UTF8.self)
        case .latin1:
            if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
            var scalars = String.UnicodeScalarView()
            for b in bytes { scalars.append(Unicode.Scalar(b)) }
            return String(scalars)
        case .windows1252:
            if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
            var scalars = String.UnicodeScalarView()
            for b in bytes {
                if b >= 0x80, b <= 0x9F, let s = Unicode.Scalar(windows1252High[Int(b - 0x80)]) {
                    scalars.append(s)
                } else {
                    scalars.append(Unicode.Scalar(b))
                }
            }
            return String(scalars)
        }
    }

    /// True when `bytes` is well-formed UTF-8.
    static func isValidUTF8(_ bytes: some Sequence<UInt8>) -> Bool {
        firstInvalidUTF8Offset(bytes) == nil
    }

    /// Offset of the first byte that is not part of well-formed UTF-8, or nil if all are.
    static func firstInvalidUTF8Offset(_ bytes: some Sequence<UInt8>) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s):
                offset += UTF8.width(s)
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }

    /// Windows-1252 0x80...0x9F (0x81, 0x8D, 0x8F, 0x90, 0x9D are undefined: kept as C1 controls).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}

extension StringProtocol {
    /// Leading and trailing Unicode whitespace removed (no Foundation needed).
    func trimmingWhitespace() -> String {
        // ASCII's white space (tab to carriage return, space) without the property tables: the
        // runs of new lines and indentation between a feed's elements are all ASCII.
        let isBlank = { (s: Unicode.Scalar) in
            s.value < 0x80 ? s.value == 0x20 || (0x09...0x0D).contains(s.value) : s.properties.isWhitespace
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }),
            let last = scalars.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

extension String {
    /// Leading and trailing Unicode whitespace removed; the string itself when it starts and ends
    /// with a printable ASCII character, as most texts do (no copy, no scan).
    func trimmingWhitespace() -> String {
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return self
        }
        return self[...].trimmingWhitespace()
    }
}
