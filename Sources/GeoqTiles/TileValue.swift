import GeoqCore

/// An attribute value as MVT 2.1 stores it: one of the `Value` message's seven fields.
///
/// Equality and hashing compare floating-point values bit for bit, so that a layer's value
/// table keeps one entry per distinct bit pattern (NaN included) and never merges 0.0 and -0.0.
public enum TileValue: Sendable {
    case string(String)
    case float(Float)
    case double(Double)
    case int(Int64)
    case uint(UInt64)
    case sint(Int64)
    case bool(Bool)

    /// Integers this close to zero are written as integers; beyond 2^53 a `Double` no longer
    /// tells consecutive integers apart, so such values stay doubles.
    static let exactIntegerLimit = 9_007_199_254_740_992.0

    /// The value of `property`, nil for `.null` (MVT has no null: the attribute is left out).
    /// A number that is an integer of magnitude below 2^53 becomes `.int` when non-negative and
    /// `.sint` when negative (zigzag: small negatives stay short); any other number `.double`.
    public init?(_ property: PropertyValue) {
        switch property {
        case .string(let s): self = .string(s)
        case .bool(let b): self = .bool(b)
        case .null: return nil
        case .number(let d):
            if d.rounded(.towardZero) == d, Swift.abs(d) < Self.exactIntegerLimit {
                let i = Int64(d)
                self = i >= 0 ? .int(i) : .sint(i)
            } else {
                self = .double(d)
            }
        }
    }

    /// The `Value` message's field number for this case.
    var fieldNumber: UInt32 {
        switch self {
        case .string: 1
        case .float: 2
        case .double: 3
        case .int: 4
        case .uint: 5
        case .sint: 6
        case .bool: 7
        }
    }
}

extension TileValue: Hashable {
    public static func == (a: TileValue, b: TileValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): x == y
        case (.float(let x), .float(let y)): x.bitPattern == y.bitPattern
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.int(let x), .int(let y)): x == y
        case (.uint(let x), .uint(let y)): x == y
        case (.sint(let x), .sint(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fieldNumber)
        switch self {
        case .string(let s): hasher.combine(s)
        case .float(let f): hasher.combine(f.bitPattern)
        case .double(let d): hasher.combine(d.bitPattern)
        case .int(let i), .sint(let i): hasher.combine(i)
        case .uint(let u): hasher.combine(u)
        case .bool(let b): hasher.combine(b)
        }
    }
}
