/// Protocol Buffers wire format written into a growing byte array: varints, zigzag, fixed
/// widths and length-delimited fields (protobuf's encoding guide). Only what MVT needs.
struct ProtobufWriter {
    enum WireType: UInt32 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    @inline(__always)
    mutating func key(_ field: UInt32, _ wire: WireType) {
        varint(UInt64(field << 3 | wire.rawValue))
    }

    mutating func varintField(_ field: UInt32, _ value: UInt64) {
        key(field, .varint)
        varint(value)
    }

    mutating func fixed32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func fixed64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func stringField(_ field: UInt32, _ value: String) {
        var text = value
        text.withUTF8 { utf8 in
            key(field, .lengthDelimited)
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// A packed repeated `uint32` field; nothing for no values (proto2 writes no empty packed
    /// field).
    mutating func packedField(_ field: UInt32, _ values: ArraySlice<UInt32>) {
        guard !values.isEmpty else { return }
        key(field, .lengthDelimited)
        varint(UInt64(Self.packedSize(values)))
        for v in values { varint(UInt64(v)) }
    }

    /// The bytes of the varint of `value`.
    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int {
        // 7 bits a byte; a zero still takes one.
        let bits = 64 - value.leadingZeroBitCount
        return Swift.max(1, (bits + 6) / 7)
    }

    /// The bytes of `values` packed, without key and length.
    static func packedSize(_ values: ArraySlice<UInt32>) -> Int {
        var size = 0
        for v in values { size += varintSize(UInt64(v)) }
        return size
    }

    /// The bytes of a length-delimited field of `length` bytes with a one-byte key.
    @inline(__always)
    static func embeddedSize(_ length: Int) -> Int {
        1 + varintSize(UInt64(length)) + length
    }
}
