/// The text of an ISO 8601 instant as Foundation's parser can take it.
public enum InstantText {
    /// `text` with the fraction of a second cut to three digits, the millisecond ICU reads a
    /// fraction to: it misreads a longer one from eleven digits on (the time a second early) and
    /// traps on one of about 35, which would end the process that asked. Every run of digits
    /// after a point is cut, not only the first: in malformed text (`2026-03.01T08:00:10.5888…`)
    /// the first point is not the fraction's, and ICU still reads the rest.
    public static func millisecondsAtMost(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: ".")) else { return text }
        let isDigit: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            out.append(bytes[i])
            if bytes[i] == UInt8(ascii: ".") {
                let digits = bytes[(i + 1)...].prefix(while: isDigit).count
                out.append(contentsOf: bytes[(i + 1)..<(i + 1 + min(digits, 3))])
                i += 1 + digits
                continue
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
