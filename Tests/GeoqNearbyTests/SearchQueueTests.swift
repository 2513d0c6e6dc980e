import GeoqTestSupport
import Testing

@testable import GeoqNearby

/// The search's queue pops its entries smallest key first, as a list while it is short and as
/// a heap once it has held more than ``SearchQueue/listLength``: pushes and pops interleaved
/// at random, with repeated keys, against a plain sorted copy.
@Suite struct SearchQueueTests {
    @Test(arguments: [5, 32, 33, 200])
    func popsTheSmallestKeyFirst(most: Int) {
        var rng = SeededRandom(seed: UInt64(most))
        for _ in 0..<50 {
            var queue = SearchQueue(capacity: 4)
            var expected: [PositionTree.QueueEntry] = []
            var slot: Int32 = 0
            var everHeld = 0
            for _ in 0..<(3 * most) {
                if expected.count < most && (expected.isEmpty || rng.uniform(0...1) < 0.6) {
                    let key = rng.uniform(0...1) < 0.2 ? 1.5 : rng.uniform(0...10)
                    queue.push(PositionTree.QueueEntry(key: key, slot: slot))
                    expected.append(PositionTree.QueueEntry(key: key, slot: slot))
                    slot += 1
                    everHeld = max(everHeld, expected.count)
                } else {
                    let popped = queue.pop()!
                    let smallest = expected.map(\.key).min()!
                    #expect(popped.key == smallest)
                    // The entry popped is one that was pushed with that key, and only once.
                    let at = expected.firstIndex { $0.slot == popped.slot }
                    #expect(at != nil && expected[at!].key == popped.key)
                    expected.remove(at: at!)
                }
                #expect(queue.count == expected.count)
            }
            while let popped = queue.pop() {
                #expect(popped.key == expected.map(\.key).min()!)
                expected.removeAll { $0.slot == popped.slot }
            }
            #expect(expected.isEmpty)
            #expect(queue.isHeap == (everHeld > SearchQueue.listLength))
        }
    }
}
