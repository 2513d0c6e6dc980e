import GeoqSchedule
import GeoqTariffs
import Testing

/// SPEC §1's figures for tariffs A (blue, red) and A + B (orange).
@Suite struct RateTableTests {
    let blue = try! Pamplona.tariffs.zone("blue").rates!
    let orange = try! Pamplona.tariffs.zone("orange").rates!

    @Test(arguments: [("0.25", 10), ("0.30", 13), ("1.00", 55), ("2.05", 118), ("2.10", 120)])
    func eurosToMinutesBlue(euros: String, minutes: Int) {
        #expect(blue.minutes(for: Money(euros: euros)!) == minutes)
    }

    @Test(arguments: [("2.10", 120), ("2.15", 130), ("4.35", 570), ("1.00", 55)])
    func eurosToMinutesOrange(euros: String, minutes: Int) {
        #expect(orange.minutes(for: Money(euros: euros)!) == minutes)
    }

    @Test(arguments: [
        (53, "1.00"), (54, "1.00"), (55, "1.00"), (56, "1.05"), (1, "0.25"), (10, "0.25"), (11, "0.30"),
        (120, "2.10"), (119, "2.10"),
    ])
    func minutesToEurosBlue(minutes: Int, euros: String) {
        #expect(blue.price(for: minutes).decimal == euros)
    }

    @Test func minutesToEurosOrange() {
        #expect(orange.price(for: 570).decimal == "4.35")
        #expect(orange.price(for: 121).decimal == "2.15")
        #expect(orange.price(for: 130).decimal == "2.15")
        #expect(orange.price(for: 131).decimal == "2.20")
    }

    @Test func blueRefusesPastItsLastLine() {
        #expect(blue.minutes(for: Money(euros: "2.15")!) == nil)
        #expect(orange.minutes(for: Money(euros: "4.40")!) == nil)
    }

    /// For every duration: the price buys at least that long, and one coin less does not.
    @Test func pricesAreTheSmallestSufficientAmounts() {
        for table in [blue, orange] {
            for m in 1...table.maximumMinutes {
                let price = table.price(for: m)
                #expect(table.minutes(for: price)! >= m)
                let less = Money(cents: price.cents - 5)
                if less >= table.minimum { #expect(table.minutes(for: less)! < m, "\(m) min") }
            }
        }
    }

    @Test func parsesAmountsAsPeopleTypeThem() {
        #expect(Money(euros: "2,10")?.cents == 210)
        #expect(Money(euros: "2.1")?.cents == 210)
        #expect(Money(euros: "2")?.cents == 200)
        #expect(Money(euros: "0.05")?.cents == 5)
        #expect(Money(euros: "2.125") == nil)
        #expect(Money(euros: "-1") == nil)
        #expect(Money(euros: "1e2") == nil)
        #expect(Money(euros: "") == nil)
        #expect(Money(cents: 435).text(decimalComma: true) == "4,35 EUR")
    }
}
