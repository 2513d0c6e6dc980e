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
        // One uniqueness check for the whole walk up, not one per move.
        storage.withUnsafeMutableBufferPointer { heap in
            HeapSift.up(element, from: heap.count - 1, in: heap.baseAddress!, by: <)
        }
    }

    /// Removes and returns the smallest element, or nil when the heap is empty.
    @inlinable
    public mutating func pop() -> Element? {
        guard let last = storage.popLast() else { return nil }
        if storage.isEmpty { return last }
        return storage.withUnsafeMutableBufferPointer { heap in
            let top = heap[0]
            // `last` goes down from the root through the hole left by `top`.
            HeapSift.down(last, in: heap.baseAddress!, count: heap.count, by: <)
            return top
        }
    }
}
