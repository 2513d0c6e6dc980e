/// Unaligned little/big-endian loads from a byte buffer. Callers check ranges first with
/// ``has(_:at:)``; the loads themselves are only bounds-checked by the standard library's debug
/// preconditions, so every offset must come from a checked range.
struct ByteView {
    let raw: UnsafeRawBufferPointer

    var count: Int { raw.count }

    /// True when `length` bytes starting at `offset` lie inside the buffer (no overflow).
    @inline(__always)
    func has(_ length: Int, at offset: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= raw.count && length <= raw.count - offset
    }

    @inline(__always)
    func int32BE(_ offset: Int) -> Int32 {
        Int32(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    @inline(__always)
    func int32LE(_ offset: Int) -> Int32 {
        Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    @inline(__always)
    func uint32LE(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inline(__always)
    func uint16LE(_ offset: Int) -> UInt16 {
        UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    @inline(__always)
    func doubleLE(_ offset: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }

    @inline(__always)
    func byte(_ offset: Int) -> UInt8 { raw[offset] }
}
