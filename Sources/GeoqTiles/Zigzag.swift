/// Protobuf's zigzag encoding of signed integers (`sint32`, `sint64` and MVT parameters), which
/// maps small magnitudes of either sign to small unsigned numbers: 0, -1, 1, -2 … to 0, 1, 2, 3 ….
enum Zigzag {
    @inline(__always)
    static func encode32(_ n: Int32) -> UInt32 {
        UInt32(bitPattern: (n << 1) ^ (n >> 31))
    }

    @inline(__always)
    static func encode64(_ n: Int64) -> UInt64 {
        UInt64(bitPattern: (n << 1) ^ (n >> 63))
    }
}
