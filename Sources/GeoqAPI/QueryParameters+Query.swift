extension QueryParameters {
    /// The parameters of a URI's query: the text after `?` (without it), `name=value` pairs
    /// joined by `&`, names and values percent-decoded.
    ///
    /// - Empty pairs (`lat=1&&lon=2`, a trailing `&`) are skipped, as browsers' URLSearchParams
    ///   does; a pair without `=` is a name with an empty value.
    /// - `+` stays a plus sign: only HTML form bodies read it as a space, and a time such as
    ///   `start=2026-03-15T10:00+01:00` needs it.
    /// - A malformed escape (`%zz`, a lone `%`) is kept as written, so that the parameter's own
    ///   check names it; escaped bytes that are not UTF-8 become U+FFFD.
    public init(query: String) {
        var query = query
        var pairs: [(name: String, value: String)] = []
        query.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
                let pair = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if !pair.isEmpty {
                    let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.count
                    pairs.append(
                        (
                            Self.percentDecoded(UnsafeBufferPointer(rebasing: pair[..<equals])),
                            Self.percentDecoded(UnsafeBufferPointer(rebasing: pair[min(equals + 1, pair.count)...]))
                        ))
                }
                start = end + 1
            }
        }
        self.init(pairs)
    }

    /// `text` with its `%XX` escapes decoded; as written when an escape is malformed.
    static func percentDecoded(_ text: UnsafeBufferPointer<UInt8>) -> String {
        guard text.contains(UInt8(ascii: "%")) else { return String(decoding: text, as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                index += 1
                continue
            }
            guard index + 2 < text.count, let high = hexValue(text[index + 1]), let low = hexValue(text[index + 2])
            else { return String(decoding: text, as: UTF8.self) }
            decoded.append(high << 4 | low)
            index += 3
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
