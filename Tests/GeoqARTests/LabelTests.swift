import Foundation
import GeoqAR
import GeoqCore
import Testing

/// Label scale and stacking, by hand.
@Suite struct LabelTests {
    @Test(arguments: [
        // Linear, near 50 m → 1.0, far 2000 m → 0.4: s = 1 − 0.6·(d − 50)/1950.
        (10.0, 1.0),  // closer than near: 1
        (50.0, 1.0),  // at near: t = 0
        (1025.0, 0.7),  // midway: t = 975/1950 = 0.5 → 1 − 0.3 = 0.7
        (2000.0, 0.4),  // at far: t = 1
        (5000.0, 0.4),  // beyond far: clamped
    ])
    func linearScale(distance: Double, expected: Double) {
        #expect(close(AROverlay.scale(distance: distance, options: AROptions()), expected, 1e-12))
    }

    @Test func logarithmicScale() {
        let options = AROptions(scaleCurve: .logarithmic)
        // Halfway at the geometric mean √(50·2000) = 316.228 m: t = ln(316.228/50)/ln(40) = 0.5 → 0.7.
        #expect(close(AROverlay.scale(distance: 316.227_766_016_837_96, options: options), 0.7, 1e-12))
        #expect(close(AROverlay.scale(distance: 50, options: options), 1, 1e-12))
        #expect(close(AROverlay.scale(distance: 20, options: options), 1, 1e-12))
        #expect(close(AROverlay.scale(distance: 2000, options: options), 0.4, 1e-12))
        #expect(close(AROverlay.scale(distance: 9000, options: options), 0.4, 1e-12))
    }

    @Test func labelSizeFromNameLengthAndScale() {
        // "Falla" (5 characters) at scale 1: 5·8 + 2·6 = 52 px wide, 24 px high.
        let target = ARTarget(id: "1", name: "Falla", position: Point(x: 0, y: 40))
        let near = label(target, camera: testCamera())
        #expect(close(near.width, 52) && close(near.height, 24))
        // At 1025 m the scale is 0.7: 36.4 × 16.8 px.
        let far = label(ARTarget(id: "1", name: "Falla", position: Point(x: 0, y: 1025)), camera: testCamera())
        #expect(close(far.width, 36.4, 1e-9) && close(far.height, 16.8, 1e-9))
        // A fixed width ignores the name.
        let fixed = label(target, camera: testCamera(), options: AROptions(labelFixedWidth: 100))
        #expect(close(fixed.width, 100))
    }

    @Test func overlappingLabelsStackNearestInFront() {
        // near = 1000 m so every label has scale 1; fixed 100 × 20 px labels.
        let options = AROptions(nearDistance: 1000, farDistance: 2000, labelFixedWidth: 100, labelHeight: 20)
        // Three targets straight ahead (all project to (500, 1000)) and one 200 px to the right:
        // x = 500 + 500·tan Δψ = 700 → tan Δψ = 0.4, Δψ = 21.8°; its label spans 650...750,
        // clear of 450...550.
        let aside = ARTarget(id: "aside", name: "aside", position: Point(x: 0.4 * 250, y: 250))
        let targets = [
            planarTarget("c", bearing: 0, distance: 300), aside, planarTarget("a", bearing: 0, distance: 100),
            planarTarget("b", bearing: 0, distance: 200),
        ]
        let labels = AROverlay.compute(
            camera: testCamera(), targets: targets, geodesic: PlanarGeodesic(), options: options)
        let byID = Dictionary(uniqueKeysWithValues: labels.map { ($0.id, $0) })
        // a (100 m) is nearest: keeps y = 1000, level 0.
        #expect(close(byID["a"]!.y, 1000) && byID["a"]!.stackLevel == 0)
        // b (200 m) overlaps a: moves up one height, y = 1000 − 20 = 980.
        #expect(close(byID["b"]!.y, 980) && byID["b"]!.stackLevel == 1)
        // c (300 m) overlaps a, then b at 980: two moves, y = 960.
        #expect(close(byID["c"]!.y, 960) && byID["c"]!.stackLevel == 2)
        // aside overlaps nothing.
        #expect(close(byID["aside"]!.x, 700, 1e-9) && close(byID["aside"]!.y, 1000) && byID["aside"]!.stackLevel == 0)
        // Nearest first: the order to draw back to front is the reverse.
        #expect(labels.map(\.id) == ["a", "b", "aside", "c"])
    }

    @Test func partlyOverlappingLabelMovesByItsOwnHeight() {
        // Labels 100 × 20 at scale 1. Near one at (500, 1000). The farther one projects 10 px
        // higher (y = 990, spanning 980...1000, overlapping 990...1010) and 30 px to the right.
        // One move of 20 px: y = 970, spanning 960...980, clear of 990...1010.
        let options = AROptions(nearDistance: 1000, farDistance: 2000, labelFixedWidth: 100, labelHeight: 20)
        // At 500 m ahead: x = 500 + 500·(e/500) → e = 30 m gives x = 530;
        // y = 1000 − 1000·(u/500) → u = 5 m gives y = 990.
        let farther = ARTarget(id: "far", name: "far", position: Point(x: 30, y: 500), altitude: 5)
        let labels = AROverlay.compute(
            camera: testCamera(), targets: [farther, planarTarget("near", bearing: 0, distance: 100)],
            geodesic: PlanarGeodesic(), options: options)
        #expect(labels[0].id == "near" && close(labels[0].y, 1000))
        #expect(close(labels[1].x, 530, 1e-9))
        #expect(close(labels[1].y, 970, 1e-9) && labels[1].stackLevel == 1)
    }

    @Test func invisibleLabelsDoNotStack() {
        let options = AROptions(nearDistance: 1000, farDistance: 2000, labelFixedWidth: 100, labelHeight: 20)
        // The nearer target is beyond the maximum distance... no: behind the user; it must not push.
        let labels = AROverlay.compute(
            camera: testCamera(),
            targets: [
                planarTarget("behind", bearing: 180, distance: 50), planarTarget("ahead", bearing: 0, distance: 100),
            ],
            geodesic: PlanarGeodesic(), options: options)
        #expect(labels.first { $0.id == "ahead" }!.stackLevel == 0)
        // Stacking off: overlapping labels stay where they project.
        let flat = AROverlay.compute(
            camera: testCamera(),
            targets: [planarTarget("a", bearing: 0, distance: 100), planarTarget("b", bearing: 0, distance: 200)],
            geodesic: PlanarGeodesic(),
            options: AROptions(nearDistance: 1000, farDistance: 2000, stackLabels: false))
        #expect(flat.allSatisfy { close($0.y, 1000) && $0.stackLevel == 0 })
    }
}
