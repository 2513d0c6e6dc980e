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
        if let offset = bytes.withContiguousStorageIfAvailable(firstInvalidUTF8Offset(contiguous:)) { return offset }
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

    /// ``firstInvalidUTF8Offset(_:)`` over bytes in memory: ASCII eight bytes at a step, and each
    /// other sequence checked against the table of well-formed UTF-8 (Unicode 15, table 3-7:
    /// no overlong forms, no surrogates, nothing above U+10FFFF). The standard library's
    /// decoder, one scalar at a time through an iterator, took milliseconds on a shapefile's
    /// attribute table of a few megabytes.
    static func firstInvalidUTF8Offset(contiguous bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let p = bytes.baseAddress else { return nil }
        let n = bytes.count
        var i = 0
        while i < n {
            if i + 8 <= n, UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let lead = p[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // The bytes that follow the lead, and the range of the first of them.
            let following: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: following = 1
            case 0xE0: (following, low) = (2, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: following = 2
            case 0xED: (following, high) = (2, 0x9F)
            case 0xF0: (following, low) = (3, 0x90)
            case 0xF1...0xF3: following = 3
            case 0xF4: (following, high) = (3, 0x8F)
            default: return i
            }
            guard i + following < n, (low...high).contains(p[i + 1]) else { return i }
            for k in stride(from: 2, through: following, by: 1) where !(0x80...0xBF).contains(p[i + k]) { return i }
            i += following + 1
        }
        return nil
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
