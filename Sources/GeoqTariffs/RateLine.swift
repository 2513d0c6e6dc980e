/// One line of a tariff, in the style of the Curb Data Specification's rates: over
/// `start..<end` minutes of stay, either one block at a fixed price (the minimum ticket: 10 min
/// for 0.25 EUR) or a price per increment (0.05 EUR per 3 min). An increment that would pass
/// `end` buys only what is left up to `end` (the last 0.05 EUR of tariff A buys 2 minutes).
public struct RateLine: Hashable, Sendable {
    public enum Pricing: Hashable, Sendable {
        case block(Money)
        case increment(price: Money, minutes: Int)
    }
    public var start: Int
    public var end: Int
    public var pricing: Pricing
    /// The tariff the line comes from ("A", "B").
    public var tariff: String

    public init(start: Int, end: Int, pricing: Pricing, tariff: String) {
        self.start = start
        self.end = end
        self.pricing = pricing
        self.tariff = tariff
    }
}

/// A zone's rate lines end to end: euros → minutes and minutes → euros.
///
/// Invariants (checked when a tariff file is read): the first line starts at 0, each line starts
/// where the previous ended, every price is a positive multiple of the coin.
public struct RateTable: Hashable, Sendable {
    public let lines: [RateLine]

    public init(lines: [RateLine]) {
        precondition(!lines.isEmpty && lines[0].start == 0, "rate lines start at minute 0")
        self.lines = lines
    }

    /// The longest stay the lines price.
    public var maximumMinutes: Int { lines.last!.end }

    /// The cheapest amount: the first block, or one increment.
    public var minimum: Money {
        switch lines[0].pricing {
        case .block(let price): price
        case .increment(let price, _): price
        }
    }

    /// Minutes `amount` buys, or nil when it buys past the last line (or the money cannot all
    /// be spent: the amount is not reachable). Amounts below ``minimum`` buy 0.
    public func minutes(for amount: Money) -> Int? {
        var remaining = amount.cents
        var minutes = 0
        for line in lines {
            switch line.pricing {
            case .block(let price):
                guard remaining >= price.cents else { return remaining == 0 ? minutes : nil }
                remaining -= price.cents
                minutes = line.end
            case .increment(let price, let step):
                let capacity = (line.end - line.start + step - 1) / step
                let bought = min(remaining / price.cents, capacity)
                remaining -= bought * price.cents
                minutes = min(line.end, line.start + bought * step)
                if bought < capacity { return remaining == 0 ? minutes : nil }
            }
            if remaining == 0 { return minutes }
        }
        return remaining == 0 ? minutes : nil
    }

    /// The smallest amount that buys at least `minutes` (1 ≤ minutes ≤ ``maximumMinutes``).
    public func price(for minutes: Int) -> Money {
        precondition(minutes >= 1 && minutes <= maximumMinutes, "minutes outside the table")
        var cents = 0
        for line in lines {
            switch line.pricing {
            case .block(let price):
                cents += price.cents
            case .increment(let price, let step):
                let needed = (min(minutes, line.end) - line.start + step - 1) / step
                cents += needed * price.cents
            }
            if minutes <= line.end { return Money(cents: cents) }
        }
        return Money(cents: cents)
    }
}
