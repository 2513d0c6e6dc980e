#if canImport(Glibc)
    import Glibc
#endif

/// Memory for the large buffers of an index (a layer's vertices, its stored bytes): aligned to
/// 2 MiB and marked for transparent huge pages where the kernel offers them, so that filling
/// 100 MB takes 50 page faults instead of 25,000 (on the time zones, the faults were most of
/// the time of reading an index). Smaller buffers are allocated as usual.
///
/// Free the memory with `deallocate()` as any other: it comes from the same allocator.
enum LargeAllocation {
    /// Buffers from this size on get huge pages.
    static let threshold = 4 << 20
    static let hugePage = 2 << 20

    /// Uninitialised room for `count` values of `T`.
    static func buffer<T>(of type: T.Type = T.self, count: Int) -> UnsafeMutableBufferPointer<T> {
        let bytes = count * MemoryLayout<T>.stride
        guard bytes >= threshold else { return .allocate(capacity: count) }
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: bytes, alignment: Swift.max(hugePage, MemoryLayout<T>.alignment))
        #if canImport(Glibc)
            // Advice only: without huge pages the memory is the same, only slower to fill.
            _ = madvise(raw, bytes, MADV_HUGEPAGE)
        #endif
        return UnsafeMutableBufferPointer(start: raw.bindMemory(to: T.self, capacity: count), count: count)
    }

    /// Uninitialised raw bytes (see ``buffer(of:count:)``), aligned to at least 16 bytes.
    static func bytes(count: Int) -> UnsafeMutableRawBufferPointer {
        let words = buffer(of: SIMD2<UInt64>.self, count: (count + 15) / 16)
        return UnsafeMutableRawBufferPointer(start: words.baseAddress, count: count)
    }
}
