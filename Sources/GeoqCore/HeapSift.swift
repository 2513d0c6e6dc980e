/// The two moves of a binary min-heap kept in a buffer (the children of slot i at 2i + 1 and
/// 2i + 2, no element preceding its parent), for ``MinHeap`` and for the search queues that
/// keep their heap in storage of their own. Each move carries the element through a hole rather
/// than swapping: one write per level. Inlinable and always inlined, so that every queue gets
/// the loop specialised to its element and its order.
public enum HeapSift {
    /// Puts `element` in the hole at `child` or above it, moving down each parent it precedes.
    @inlinable @inline(__always)
    public static func up<Element>(
        _ element: Element, from child: Int, in heap: UnsafeMutablePointer<Element>,
        by precedes: (Element, Element) -> Bool
    ) {
        var child = child
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(element, heap[parent]) else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = element
    }

    /// Puts `element` in the hole at the root of the heap's first `count` slots or below it,
    /// moving up the smaller child while that precedes `element`.
    @inlinable @inline(__always)
    public static func down<Element>(
        _ element: Element, in heap: UnsafeMutablePointer<Element>, count: Int,
        by precedes: (Element, Element) -> Bool
    ) {
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            let right = left + 1
            let smaller = right < count && precedes(heap[right], heap[left]) ? right : left
            guard precedes(heap[smaller], element) else { break }
            heap[parent] = heap[smaller]
            parent = smaller
        }
        heap[parent] = element
    }
}
