/// The text of an ISO 8601 instant as Foundation's parser can take it.
public enum InstantText {
    /// `text` with the fraction of a second cut to three digits, the millisecond ICU reads a
    /// fraction to: it misreads a longer one from eleven digits on (the time a second early) and
    /// traps on one of about 35, which would end the process that asked.
    public static func millisecondsAtMost(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard let point = bytes.firstIndex(of: UInt8(ascii: ".")) else { return text }
        let digits = bytes[(point + 1)...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
        guard digits > 3 else { return text }
        return String(decoding: bytes[...(point + 3)] + bytes[(point + 1 + digits)...], as: UTF8.self)
    }
}
