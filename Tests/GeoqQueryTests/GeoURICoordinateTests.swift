import Foundation
import GeoqTestSupport
import Testing

@testable import GeoqQuery

/// A point layer's geo URI coordinates: at most 7 decimals, trailing zeros trimmed, exactly as
/// Foundation's `String(format: "%.7f")` then trimmed (the second implementation here).
@Suite struct GeoURICoordinateTests {
    static func reference(_ value: Double) -> String {
        var s = value.description
        let decimals = s.firstIndex(of: ".").map { s.distance(from: $0, to: s.endIndex) - 1 } ?? 0
        if s.contains("e") || decimals > 7 { s = String(format: "%.7f", value) }
        while s.hasSuffix("0") && s.contains(".") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    @Test func seededCoordinatesMatchFoundationsFormatting() {
        var random = SeededRandom(seed: 0x6E0)
        var mismatches: [Double] = []
        for i in 0..<100_000 {
            let value: Double
            switch i % 5 {
            case 0: value = random.uniform(-180...180)  // 14-17 significant digits
            case 1: value = (random.uniform(-90...90) * 1e7).rounded() / 1e7  // published with 7 decimals
            case 2: value = (random.uniform(-1...1) * 1e8).rounded() / 1e8 + 0.5e-7  // near a tie at 7 decimals
            case 3: value = random.uniform(-1e-6...1e-6)  // printed with an exponent
            // Multiples of 1/256 are exact ties at the 8th decimal (x.5 × 10⁻⁷) or near them.
            default: value = Double(Int.random(in: -46_080...46_080, using: &random)) / 256
            }
            if PointLayer.coordinate(value) != Self.reference(value) { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func examples() {
        #expect(PointLayer.coordinate(39.4699) == "39.4699")
        #expect(PointLayer.coordinate(-0.376288) == "-0.376288")
        #expect(PointLayer.coordinate(-0.37628849999) == "-0.3762885")
        #expect(PointLayer.coordinate(1e-9) == "0")
        #expect(PointLayer.coordinate(42) == "42")
        // Exact ties at the 8th decimal go to the even digit, as printf does.
        #expect(PointLayer.sevenDecimals(1.0 / 256) == "0.0039062")  // 0.00390625
        #expect(PointLayer.sevenDecimals(3.0 / 256) == "0.0117188")  // 0.01171875
        #expect(PointLayer.sevenDecimals(-1e-9) == "-0.0000000")
    }
}
