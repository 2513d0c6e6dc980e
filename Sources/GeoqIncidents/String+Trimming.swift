extension String {
    /// Leading and trailing white space removed, the set Foundation's `.whitespacesAndNewlines`
    /// trims (Unicode's White_Space and the zero width space U+200B) without bridging through
    /// NSString. The string itself when it starts and ends with a printable ASCII character, as
    /// titles, guids and links do (no copy, no scan).
    func trimmingWhiteSpace() -> String {
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return self
        }
        let isBlank = { (scalar: Unicode.Scalar) in scalar.properties.isWhitespace || scalar == "\u{200B}" }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }),
            let last = scalars.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
