import GeoqCore
import Testing

@Suite struct DE9IMTests {
    /// Point inside a polygon: the textbook matrix 0FFFFF212; its transpose is 0F2FF1FF2
    /// (polygon against point), written out by hand from the definitions.
    @Test func pointInsideArea() {
        #expect(DE9IM.pointAgainstArea(.interior) == "0FFFFF212")
        #expect(DE9IM.transposed("0FFFFF212") == "0F2FF1FF2")
    }

    @Test(arguments: [
        ("0FFFFF212", "T*F**F***", true),  // within
        ("F0FFFF212", "T*F**F***", false),  // on the boundary is not within
        ("F0FFFF212", "F***T****", false),  // boundary row of a point is empty
        ("F0FFFF212", "FT*******", true),  // touches (point interior meets area boundary)
        ("FF0FFF212", "FF*FF****", true),  // disjoint
    ])
    func patterns(matrix: String, pattern: String, expected: Bool) {
        #expect(DE9IM.matches(matrix, pattern: pattern) == expected)
    }
}
