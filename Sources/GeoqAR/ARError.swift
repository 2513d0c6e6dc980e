/// Why a camera or the overlay options cannot produce an overlay. ``code`` is stable; the CLI
/// maps every case to a usage error (exit 64).
public enum ARError: Error, Equatable, Sendable {
    /// A number that must be finite is NaN or infinite (`name` says which).
    case notFinite(name: String, value: Double)
    /// A field of view outside (0, 180) degrees.
    case fieldOfViewOutOfRange(name: String, degrees: Double)
    /// A screen width or height that is not a positive number of pixels.
    case screenSizeNotPositive(name: String, pixels: Double)
    /// Options that contradict each other or are out of range (the message says which).
    case invalidOptions(String)

    /// A short stable identifier of the kind of error.
    public var code: String {
        switch self {
        case .notFinite: "not-finite"
        case .fieldOfViewOutOfRange: "field-of-view-out-of-range"
        case .screenSizeNotPositive: "screen-size-not-positive"
        case .invalidOptions: "invalid-options"
        }
    }
}

extension ARError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notFinite(let name, let value): "\(name) \(value) is not a finite number"
        case .fieldOfViewOutOfRange(let name, let degrees):
            "\(name) \(degrees)° is outside (0, 180) degrees"
        case .screenSizeNotPositive(let name, let pixels): "\(name) \(pixels) px must be a positive number of pixels"
        case .invalidOptions(let message): message
        }
    }
}
