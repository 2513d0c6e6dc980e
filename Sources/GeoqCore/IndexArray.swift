/// An immutable array of plain values in a packed index: memory of its own, or a range of a
/// stored index's bytes (``IndexBlob``) used where it was read, which it keeps alive.
///
/// Why: a stored index of the world's time zones holds some 70 MB of tree boxes, runs and grid
/// cells besides its stripes. Copied out of the bytes read, they cost a new process a second
/// 70 MB of page faults; used in place they cost nothing more.
///
/// Invariant: `base` points at `count` initialised values that stay valid and unchanged as long
/// as `owner` lives (hence safe to share between threads).
@usableFromInline
struct IndexArray<Element>: RandomAccessCollection, @unchecked Sendable {
    @usableFromInline let base: UnsafePointer<Element>?
    @usableFromInline let count: Int
    /// What keeps `base` valid: the ``IndexBlob`` it lies in, or memory of its own.
    private let owner: AnyObject?

    /// A copy of `array` in memory of its own.
    init(_ array: [Element]) {
        guard !array.isEmpty else {
            (base, count, owner) = (nil, 0, nil)
            return
        }
        let memory = OwnMemory(array)
        (base, count, owner) = (UnsafePointer(memory.values), array.count, memory)
    }

    /// Takes over `buffer` (every value initialised, allocated as ``LargeAllocation`` or
    /// `allocate` does): a large table built in place is not copied once more.
    init(adopting buffer: UnsafeMutableBufferPointer<Element>) {
        guard let values = buffer.baseAddress, !buffer.isEmpty else {
            buffer.deallocate()
            (base, count, owner) = (nil, 0, nil)
            return
        }
        (base, count, owner) = (UnsafePointer(values), buffer.count, OwnMemory(adopting: buffer))
    }

    /// `count` values at `base`, which lie in `blob`.
    init(in blob: IndexBlob, at base: UnsafePointer<Element>, count: Int) {
        (self.base, self.count, owner) = (count > 0 ? base : nil, count, blob)
    }

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { count }

    /// Positions are checked in debug builds only, as in the buffers the queries walk: the
    /// build, and a stored index's structure checks, vouch for every position a query uses (a
    /// check here cost the whole which-sector answer 6 %).
    @inlinable subscript(position: Int) -> Element {
        assert(position >= 0 && position < count, "index array position out of range")
        return base.unsafelyUnwrapped[position]
    }

    /// Calls `body` with the values (valid only during the call).
    @inlinable
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(UnsafeBufferPointer(start: base, count: count)) }
    }

    /// Memory holding a copy of an array's values, freed with the last ``IndexArray`` over it.
    private final class OwnMemory {
        let values: UnsafeMutablePointer<Element>
        let count: Int

        init(_ array: [Element]) {
            count = array.count
            values = LargeAllocation.buffer(of: Element.self, count: count).baseAddress!
            _ = UnsafeMutableBufferPointer(start: values, count: count).initialize(from: array)
        }

        init(adopting buffer: UnsafeMutableBufferPointer<Element>) {
            count = buffer.count
            values = buffer.baseAddress!
        }

        deinit {
            values.deinitialize(count: count)
            values.deallocate()
        }
    }
}
