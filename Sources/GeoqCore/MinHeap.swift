/// A binary min-heap: the priority queue of best-first searches.
///
/// Invariant: `storage[i] <= storage[2i + 1]` and `storage[i] <= storage[2i + 2]` wherever
/// those exist, so the smallest element (by `<`) is at index 0. Push and pop are O(log n).
/// Inlinable, so that a search in another module gets a heap specialised to its element type.
public struct MinHeap<Element: Comparable> {
    @usableFromInline var storage: [Element] = []

    /// An empty heap.
    @inlinable public init() {}

    /// An empty heap with room for `capacity` elements before it reallocates.
    @inlinable public init(capacity: Int) { storage.reserveCapacity(capacity) }

    @inlinable public var isEmpty: Bool { storage.isEmpty }

    /// The smallest element, left in the heap; nil when the heap is empty. O(1).
    @inlinable public var min: Element? { storage.first }

    /// Number of elements.
    @inlinable public var count: Int { storage.count }

    @inlinable
    public mutating func push(_ element: Element) {
        storage.append(element)
        // Sift up by moving parents down into the hole, then drop the element in: one
        // uniqueness check for the whole walk, not one per swap.
        storage.withUnsafeMutableBufferPointer { heap in
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard element < heap[parent] else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = element
        }
    }

    /// Removes and returns the smallest element, or nil when the heap is empty.
    @inlinable
    public mutating func pop() -> Element? {
        guard let last = storage.popLast() else { return nil }
        if storage.isEmpty { return last }
        return storage.withUnsafeMutableBufferPointer { heap in
            let top = heap[0]
            // Sift `last` down from the root through the hole left by `top`.
            var parent = 0
            let count = heap.count
            while true {
                let left = 2 * parent + 1
                guard left < count else { break }
                let right = left + 1
                let smaller = right < count && heap[right] < heap[left] ? right : left
                guard heap[smaller] < last else { break }
                heap[parent] = heap[smaller]
                parent = smaller
            }
            heap[parent] = last
            return top
        }
    }
}
