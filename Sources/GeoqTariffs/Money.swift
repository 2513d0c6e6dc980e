/// An amount of money in integer cents (never a floating-point number of euros).
public struct Money: Hashable, Comparable, Sendable, Codable {
    public var cents: Int

    public init(cents: Int) { self.cents = cents }

    public static func < (a: Money, b: Money) -> Bool { a.cents < b.cents }

    /// Parses what a person types: `2.10`, `2,10`, `2.1`, `2`. Nil for anything else (signs,
    /// three decimals, letters).
    public init?(euros text: String) {
        // The comma looked for in the bytes: `contains(",")` is Foundation's substring search,
        // a measurable part of every priced park request.
        let comma = text.utf8.contains(UInt8(ascii: ","))
        let parts = text.split(separator: comma ? "," : ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty, whole.count <= 7,
            whole.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        var cents = Int(whole)! * 100
        if parts.count == 2 {
            let fraction = parts[1]
            guard (1...2).contains(fraction.count), fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return nil
            }
            cents += Int(fraction)! * (fraction.count == 1 ? 10 : 1)
        }
        self.cents = cents
    }

    /// `2.10` (a point, as in JSON and ISO 4217 amounts).
    public var decimal: String {
        let c = cents % 100
        return "\(cents / 100).\(c < 10 ? "0" : "")\(c)"
    }

    /// `2,10 EUR` in Spanish and Basque, `2.10 EUR` in English.
    public func text(decimalComma: Bool) -> String {
        // Written directly, as `decimal` is: replacing the point in it went through Foundation's
        // NSString search, a measurable part of every priced park answer.
        let c = cents % 100
        return "\(cents / 100)\(decimalComma ? "," : ".")\(c < 10 ? "0" : "")\(c) EUR"
    }
}
