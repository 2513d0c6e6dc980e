import GeoqTestSupport
import Testing

@testable import GeoqNearby

/// The search's list of points within reach keeps exactly what a plain computation over all
/// the points it was shown keeps: every included point whose chord is within the reach that
/// the `limit`-th smallest included chord allows, shortest first. The list lowers its reach
/// once per leaf and keeps its smallest chords by minimums and maximums (up to 16) or by
/// insertion (beyond), so both kinds of limit are checked, with points refused by `include`,
/// equal chords, and a starting reach that cuts some off.
@Suite struct ReachListTests {
    @Test(arguments: [1, 3, 10, 16, 17, 40])
    func keepsWhatAPlainScanKeeps(limit: Int) {
        var rng = SeededRandom(seed: UInt64(100 + limit))
        let margin = 3e-4
        for trial in 0..<200 {
            // Leaves of up to eight points, chords from metres to thousands of kilometres,
            // some repeated exactly.
            var leaves: [[(chord: Double, item: Int)]] = []
            var item = 0
            for _ in 0..<Int(rng.uniform(1...12)) {
                var leaf: [(chord: Double, item: Int)] = []
                for _ in 0..<Int(rng.uniform(1...8.99)) {
                    let chord =
                        leaf.isEmpty || rng.uniform(0...1) > 0.2
                        ? pow(10, rng.uniform(0...7)) : leaf[leaf.count - 1].chord
                    leaf.append((chord, item))
                    item += 1
                }
                leaves.append(leaf)
            }
            let refused = Set((0..<item).filter { $0 % 7 == trial % 7 })
            let include: (Int) -> Bool = { !refused.contains($0) }
            let start = trial % 3 == 0 ? rng.uniform(1e3...1e7) : .infinity

            var list = PositionTree.ReachList(limit: limit, reach: start, margin: margin, capacity: 4)
            for leaf in leaves {
                list.makeRoom(for: leaf.count)
                for point in leaf {
                    list.consider(
                        squaredChord: point.chord * point.chord, position: point.item, item: Int32(point.item))
                }
                list.admit(include)
            }
            let kept = Array(list.sortKept())

            let included = leaves.joined().filter { include($0.item) && $0.chord * $0.chord <= start * start }
            let squaredChords = included.map { $0.chord * $0.chord }.sorted()
            var reach = start
            if squaredChords.count >= limit {
                reach = min(reach, ChordBound.longestGeodesic(chord: squaredChords[limit - 1].squareRoot()) + margin)
            }
            let expected = included.filter { $0.chord * $0.chord <= reach * reach }
            #expect(
                Set(kept.map { Int($0.item) }) == Set(expected.map(\.item)),
                "limit \(limit), trial \(trial)")
            #expect(kept.map(\.squaredChord) == expected.map { $0.chord * $0.chord }.sorted())
            #expect(kept.allSatisfy { $0.position == $0.item })
        }
    }

    /// Both of the list's sorts (by rank up to ``PositionTree/ReachList/longestRanked`` entries,
    /// by insertion beyond) order any chords, repeated ones included, as the standard library's
    /// sort does, and keep every entry.
    @Test func bothSortsOrderTheChords() {
        var rng = SeededRandom(seed: 7)
        for n in 0...(2 * PositionTree.ReachList.longestRanked) {
            for _ in 0..<20 {
                var entries = (0..<n).map { i in
                    PositionTree.Reached(
                        squaredChord: Double(Int(rng.uniform(0...Double(n) / 2))), position: Int32(i), item: Int32(i))
                }
                let expected = entries.map(\.squaredChord).sorted()
                entries.withUnsafeMutableBufferPointer { buffer in
                    if let base = buffer.baseAddress {
                        if n <= PositionTree.ReachList.longestRanked {
                            PositionTree.ReachList.sortByRank(base, count: n)
                        } else {
                            PositionTree.ReachList.insertionSort(base, count: n)
                        }
                    }
                }
                #expect(entries.map(\.squaredChord) == expected, "\(n) entries")
                #expect(Set(entries.map(\.item)) == Set((0..<Int32(n))), "\(n) entries")
            }
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
