#if canImport(Glibc)
    import Glibc
#endif

/// Memory for the large buffers of an index (a layer's vertices, its stored bytes, its
/// arrays): aligned to 2 MiB, filled as small pages, and offered for transparent huge pages
/// once they are taken (``settle(_:)``), so that a long-running process's lookups take fewer
/// TLB misses after the kernel's khugepaged has merged them, off the critical path.
///
/// Why not huge pages from the start: on a virtual machine whose host takes back the guest's
/// free memory (virtio-balloon free page reporting, in 2 MiB blocks), a huge page's first
/// touch after a few seconds idle cost 1 to 1.8 ms against 0.4 ms for 512 small pages: 256 MB
/// took 265 to 457 ms to fill against 100 to 170 ms. A new process would pay that on every
/// start, and building the time zones' index (without its grid) took 1,137 ms instead of 623 ms.
///
/// Free the memory with `deallocate()` as any other: it comes from the same allocator.
enum LargeAllocation {
    /// Buffers from this size on are aligned for huge pages and settled.
    static let threshold = 4 << 20
    static let hugePage = 2 << 20

    /// Uninitialised room for `count` values of `T`, its pages taken at once (``populate(_:)``)
    /// and settled, unless `populated` is false (room that may not all be written, or is
    /// written beside other work: the writer takes the pages, and settles the buffer after).
    static func buffer<T>(of type: T.Type = T.self, count: Int, populated: Bool = true) -> UnsafeMutableBufferPointer<T>
    {
        let bytes = count * MemoryLayout<T>.stride
        guard bytes >= threshold else { return .allocate(capacity: count) }
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: bytes, alignment: Swift.max(hugePage, MemoryLayout<T>.alignment))
        if populated {
            let memory = UnsafeMutableRawBufferPointer(start: raw, count: bytes)
            populate(memory)
            settle(memory)
        }
        return UnsafeMutableBufferPointer(start: raw.bindMemory(to: T.self, capacity: count), count: count)
    }

    /// Uninitialised raw bytes (see ``buffer(of:count:populated:)``), aligned to at least 16 bytes.
    static func bytes(count: Int, populated: Bool = true) -> UnsafeMutableRawBufferPointer {
        let words = buffer(of: SIMD2<UInt64>.self, count: (count + 15) / 16, populated: populated)
        return UnsafeMutableRawBufferPointer(start: words.baseAddress, count: count)
    }

    /// Takes the pages of `buffer` from the system now, in one call, before they are written:
    /// about a third less time than taking them one page fault at a time (256 MB: 67 to 127 ms
    /// against 95 to 170 ms here). Advice only: a kernel without it leaves them to the faults.
    static func populate(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Glibc)
            guard buffer.count >= threshold, let base = buffer.baseAddress else { return }
            // madvise wants a page-aligned start; the buffer's first partial page is left to a fault.
            let page = Int(getpagesize())
            let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
            let end = Int(bitPattern: base) + buffer.count
            guard end > start, let first = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(first, end - start, MADV_POPULATE_WRITE)
        #endif
    }

    /// Marks a filled buffer of ``buffer(of:count:populated:)`` for huge pages: advice only, which the
    /// kernel's khugepaged may follow later (the buffer is the same either way).
    static func settle(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Glibc)
            guard buffer.count >= threshold, let base = buffer.baseAddress else { return }
            // Whole huge pages inside the buffer only: advice never reaches memory of others.
            let start = (Int(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
            let end = (Int(bitPattern: base) + buffer.count) & ~(hugePage - 1)
            guard end > start, let first = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(first, end - start, MADV_HUGEPAGE)
        #endif
    }
}
