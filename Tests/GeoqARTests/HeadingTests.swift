import Foundation
import GeoqAR
import Testing

@Suite struct HeadingTests {
    @Test(arguments: [
        (190.0, -170.0), (-180.0, 180.0), (180.0, 180.0), (540.0, 180.0), (-190.0, 170.0), (20.0, 20.0),
        (-340.0, 20.0), (360.0, 0.0),
    ])
    func wrapping(_ degrees: Double, expected: Double) {
        #expect(close(ARAngles.wrapped(degrees), expected, 1e-12))
    }

    @Test func normalisingAndDeclination() {
        #expect(close(ARAngles.normalized(-10), 350, 1e-12))
        #expect(close(ARAngles.normalized(720), 0, 1e-12))
        // true = magnetic + declination (east positive): 359 + 2 = 361 → 1.
        #expect(close(ARAngles.trueHeading(magnetic: 359, declination: 2), 1, 1e-12))
        // West declination: 5 + (−10) = −5 → 355.
        #expect(close(ARAngles.trueHeading(magnetic: 5, declination: -10), 355, 1e-12))
    }

    @Test func averagingAcrossNorthGivesNorth() {
        // α = ½: s = ½ sin 359° + ½ sin 1° = 0, c = cos 1° > 0 → atan2(0, c) = 0, not 180.
        var filter = HeadingFilter(alpha: 0.5)
        #expect(close(filter.update(359), 359, 1e-9))
        let h = filter.update(1)
        #expect(abs(ARAngles.wrapped(h)) < 1e-9)
        // The naive arithmetic mean would be (359 + 1) / 2 = 180.
        #expect(abs(ARAngles.wrapped(h - 180)) > 179)
    }

    @Test func constantReadingsConverge() {
        // From 350° to a steady 10°: every smoothed value stays on the short arc through north
        // (within ±10° of 0), moves monotonically towards 10 and ends there.
        var filter = HeadingFilter(alpha: 0.3)
        filter.update(350)
        var previous = -10.0
        for _ in 0..<60 {
            let h = ARAngles.wrapped(filter.update(10))
            #expect(h >= previous - 1e-12 && h <= 10 + 1e-9)
            previous = h
        }
        #expect(close(previous, 10, 1e-6))
    }

    @Test func alphaOneDoesNotSmooth() {
        var filter = HeadingFilter(alpha: 1)
        for reading in [10.0, 200, 359.5] { #expect(close(filter.update(reading), reading, 1e-9)) }
    }

    @Test func cancellingReadingsKeepThePreviousHeading() {
        var filter = HeadingFilter(alpha: 0.5)
        filter.update(0)
        // ½(0, 1) + ½(0, −1) = (0, 0): no direction; keep 0.
        #expect(close(filter.update(180), 0, 1e-9))
        filter.reset()
        #expect(filter.heading == nil)
    }
}
