/// The byte form of the packed indexes: a flat sequence of arrays of plain values, each written
/// as its raw little-endian memory, so that reading one back is one bounds check and one copy.
///
/// Each array is written as `count` (UInt64), the element's stride (UInt64), eight bytes of zero
/// where needed so that the elements start at a multiple of 16 bytes, and the elements' bytes,
/// padded to 8 bytes. A reader checks both numbers against what it expects and against
/// the bytes left, so a truncated or misread blob fails with ``IndexBytesError`` instead of
/// producing a wrong index. What the bytes mean is the business of each structure's
/// `+Storage.swift` file; which version of that meaning a blob holds is the store's business
/// (it records a format version beside the bytes).
///
/// Only plain values (numbers, SIMD vectors, structs of them: no references, checked at run
/// time) can be written; the layout is this machine's (little-endian, as on every platform
/// geoq builds for).
public struct IndexByteWriter: Sendable {
    /// The bytes written so far (none when only counting).
    public private(set) var bytes: [UInt8] = []
    /// How many bytes were written (or would have been, when only counting).
    public private(set) var count = 0
    /// Whether the writer only counts (to reserve the exact room before writing).
    private let counts: Bool
    /// How many bytes of the same stream come before this writer's (for their alignment).
    private let offset: Int

    /// A writer of a stream's bytes from its `offset` on (a multiple of 8: the bytes another
    /// writer of the stream wrote before): the bytes of both, one after the other, are those
    /// of one writer that wrote everything.
    public init(reservingCapacity capacity: Int = 0, after offset: Int = 0) {
        precondition(offset % 8 == 0, "index bytes come in 8-byte units")
        counts = false
        self.offset = offset
        bytes.reserveCapacity(capacity)
    }

    /// A writer that keeps no bytes and only counts them.
    public static func counting(after offset: Int = 0) -> IndexByteWriter {
        IndexByteWriter(countingAfter: offset)
    }

    private init(countingAfter offset: Int) {
        counts = true
        self.offset = offset
    }

    /// Appends one integer (as a count or a flag).
    public mutating func append(_ value: Int) { appendRaw(UInt64(bitPattern: Int64(value))) }

    /// Appends the elements of `array` with their count and stride.
    public mutating func append<T>(_ array: [T]) {
        array.withUnsafeBufferPointer { append(UnsafeBufferPointer(start: $0.baseAddress, count: $0.count)) }
    }

    /// Appends the elements of `buffer` with their count and stride.
    public mutating func append<T>(_ buffer: UnsafeBufferPointer<T>) {
        precondition(_isPOD(T.self), "only plain values can be written as raw bytes")
        appendRaw(UInt64(buffer.count))
        appendRaw(UInt64(MemoryLayout<T>.stride))
        // The elements start 16-byte aligned, so that a reader can use them where they lie.
        if (offset + count) % 16 != 0 { appendRaw(0) }
        let size = buffer.count * MemoryLayout<T>.stride
        let padding = (8 - size % 8) % 8
        count += size + padding
        guard !counts else { return }
        bytes.append(contentsOf: UnsafeRawBufferPointer(buffer))
        bytes.append(contentsOf: repeatElement(0, count: padding))
    }

    private mutating func appendRaw(_ value: UInt64) {
        count += 8
        guard !counts else { return }
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// The bytes of a stored index, read once into memory of their own and then shared by the
/// structures read from them (their largest arrays stay where they are, see
/// ``IndexByteReader/readIndexArray(of:)``). Immutable once filled; freed when the last structure
/// that uses it goes.
public final class IndexBlob: @unchecked Sendable {
    /// The bytes, 16-byte aligned. Fill them, then ``settle()``, before reading.
    public let bytes: UnsafeMutableRawBufferPointer

    /// Room for `count` bytes, not yet filled. Its pages are taken by page faults as it is
    /// filled, not at once: a large index is read on a second thread while the first decodes
    /// the layer's rows, and taking 129 MB of pages in one call there held up the first
    /// thread's own (the time zones' rows took 131 to 153 ms instead of 78 to 89).
    public init(count: Int) { bytes = LargeAllocation.bytes(count: count, populated: false) }

    /// Says the bytes are filled (see ``LargeAllocation/settle(_:)``).
    public func settle() { LargeAllocation.settle(bytes) }

    deinit { bytes.deallocate() }
}

/// Reads what an ``IndexByteWriter`` wrote, in the same order, from bytes it does not own.
///
/// Nothing is trusted: every count is checked against the bytes left and every stride against
/// the type asked for. The bytes must stay valid while the reader is used.
public struct IndexByteReader {
    private let bytes: UnsafeRawBufferPointer
    /// When reading an ``IndexBlob``: it, for arrays left in place.
    let blob: IndexBlob?
    /// Offset of the next value.
    public private(set) var offset = 0

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.blob = nil
    }

    /// A reader of `blob` whose ``readIndexArray(of:)`` leaves arrays in the blob.
    public init(_ blob: IndexBlob) {
        self.bytes = UnsafeRawBufferPointer(blob.bytes)
        self.blob = blob
    }

    /// True when every byte was read.
    public var isAtEnd: Bool { offset == bytes.count }

    /// Reads one integer written by ``IndexByteWriter/append(_:)-(Int)``.
    public mutating func readInt() throws(IndexBytesError) -> Int {
        let raw = try readRaw()
        guard let value = Int(exactly: Int64(bitPattern: raw)) else { throw .malformed("integer out of range") }
        return value
    }

    /// Reads an array written by ``IndexByteWriter/append(_:)-(Array<T>)`` (one copy).
    public mutating func readArray<T>(of type: T.Type = T.self) throws(IndexBytesError) -> [T] {
        let (count, start) = try readArrayHeader(T.self)
        let source = bytes.baseAddress! + start
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(
                from: UnsafeRawBufferPointer(start: source, count: count * MemoryLayout<T>.stride))
            initialized = count
        }
    }

    /// Reads an array where it lies when reading an ``IndexBlob`` and its elements are aligned
    /// there (they are, as the writer puts them), else into memory of its own.
    mutating func readIndexArray<T>(of type: T.Type = T.self) throws(IndexBytesError) -> IndexArray<T> {
        let (count, start) = try readArrayHeader(T.self)
        let first = bytes.baseAddress! + start
        if let blob, Int(bitPattern: first) % MemoryLayout<T>.alignment == 0 {
            return IndexArray(in: blob, at: first.assumingMemoryBound(to: T.self), count: count)
        }
        let copy = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(
                from: UnsafeRawBufferPointer(start: first, count: count * MemoryLayout<T>.stride))
            initialized = count
        }
        return IndexArray(copy)
    }

    /// Checks an array's header and returns its count and the offset of its first element;
    /// moves past its padded bytes.
    private mutating func readArrayHeader<T>(_: T.Type) throws(IndexBytesError) -> (count: Int, start: Int) {
        precondition(_isPOD(T.self), "only plain values can be read from raw bytes")
        let count = try readRaw()
        let stride = try readRaw()
        guard stride == UInt64(MemoryLayout<T>.stride) else {
            throw .malformed("element size \(stride), expected \(MemoryLayout<T>.stride) for \(T.self)")
        }
        if offset % 16 != 0 {
            // The padding in front of the elements (see IndexByteWriter.append).
            guard try readRaw() == 0 else { throw .malformed("padding before an array is not zero") }
        }
        let left = UInt64(bytes.count - offset)
        guard stride == 0 ? count <= left : count <= left / stride else {
            throw .truncated(needed: count &* stride, left: Int(left))
        }
        let size = Int(count) * Int(stride)
        let start = offset
        offset += size
        offset += (8 - offset % 8) % 8
        guard offset <= bytes.count else { throw .truncated(needed: UInt64(offset - start), left: Int(left)) }
        return (Int(count), start)
    }

    private mutating func readRaw() throws(IndexBytesError) -> UInt64 {
        guard bytes.count - offset >= 8 else { throw .truncated(needed: 8, left: bytes.count - offset) }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return UInt64(littleEndian: value)
    }
}

/// Why stored index bytes could not be read back.
public enum IndexBytesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes end before the structure does.
    case truncated(needed: UInt64, left: Int)
    /// The bytes are whole but do not describe a valid structure (the reason says which part).
    case malformed(String)

    public var description: String {
        switch self {
        case .truncated(let needed, let left): "truncated: \(needed) bytes needed, \(left) left"
        case .malformed(let reason): "malformed: \(reason)"
        }
    }
}
