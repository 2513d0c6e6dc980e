/// Why a trace file could not be read: a stable code, the file, and where possible the line and
/// the field, so that a person can find and fix the value.
public struct TripReadError: Error, Equatable, Sendable {
    /// Stable codes (printed in JSON output and mapped to exit statuses by the CLI).
    public enum Code: String, Sendable {
        /// The file does not exist or cannot be read.
        case fileMissing = "file-missing"
        /// Not a GPX document or CSV table (malformed XML, wrong root element, empty file).
        case invalidSyntax = "invalid-syntax"
        /// A field that must be a number or a time is not one, or a required field is missing.
        case badValue = "bad-value"
        /// A latitude, longitude or accuracy outside its range.
        case outOfRange = "out-of-range"
        /// A fix is earlier than the fix before it.
        case timeOrder = "time-order"
        /// The file holds no track or route points.
        case noFixes = "no-fixes"
    }

    public var code: Code
    /// The file as the user named it.
    public var file: String
    /// 1-based line of the offending record or element, if known.
    public var line: Int?
    /// The field (`lat`, `lon`, `time`, `accuracy`, `ele`), if one is at fault.
    public var field: String?
    public var message: String

    public init(_ code: Code, file: String, line: Int? = nil, field: String? = nil, message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }
}

extension TripReadError: CustomStringConvertible {
    /// `file:line: message`, as compilers write it.
    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
