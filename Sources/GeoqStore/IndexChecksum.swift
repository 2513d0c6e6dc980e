/// A 64-bit checksum of a stored index's bytes: XXH64 (Yann Collet's xxHash, 64-bit variant,
/// seed 0), four lanes of 8-byte words, so that checking a few hundred megabytes costs a few
/// tens of milliseconds rather than the seconds of a byte-at-a-time hash.
enum IndexChecksum {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// XXH64 of `bytes` (seed 0).
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var running = Running()
        let stripes = bytes.count / 32 * 32
        running.add(UnsafeRawBufferPointer(rebasing: bytes[0..<stripes]))
        return running.finish(tail: UnsafeRawBufferPointer(rebasing: bytes[stripes...]))
    }

    /// XXH64 of bytes handed over piece by piece, while they are still in the cache after
    /// being read: every piece but the last a whole number of 32-byte stripes.
    struct Running {
        private var v1 = prime1 &+ prime2, v2 = prime2, v3: UInt64 = 0, v4 = 0 &- prime1
        private var length = 0

        /// Adds `bytes`, whose count is a multiple of 32.
        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            precondition(bytes.count % 32 == 0, "a running checksum takes whole 32-byte stripes")
            func word(_ at: Int) -> UInt64 {
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            }
            var (v1, v2, v3, v4) = (self.v1, self.v2, self.v3, self.v4)
            var offset = 0
            while offset < bytes.count {
                v1 = round(v1, word(offset))
                v2 = round(v2, word(offset + 8))
                v3 = round(v3, word(offset + 16))
                v4 = round(v4, word(offset + 24))
                offset += 32
            }
            (self.v1, self.v2, self.v3, self.v4) = (v1, v2, v3, v4)
            length += bytes.count
        }

        /// The checksum of everything added and then `tail` (fewer than 32 bytes).
        func finish(tail bytes: UnsafeRawBufferPointer) -> UInt64 {
            precondition(bytes.count < 32, "the tail of a running checksum is shorter than a stripe")
            let count = bytes.count
            var hash: UInt64
            if length > 0 {
                hash = v1.rotated(1) &+ v2.rotated(7) &+ v3.rotated(12) &+ v4.rotated(18)
                hash = merge(hash, v1)
                hash = merge(hash, v2)
                hash = merge(hash, v3)
                hash = merge(hash, v4)
            } else {
                hash = prime5
            }
            hash &+= UInt64(length + count)
            var offset = 0
            while offset + 8 <= count {
                hash ^= round(0, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                hash = hash.rotated(27) &* prime1 &+ prime4
                offset += 8
            }
            if offset + 4 <= count {
                let half = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                hash ^= half &* prime1
                hash = hash.rotated(23) &* prime2 &+ prime3
                offset += 4
            }
            while offset < count {
                hash ^= UInt64(bytes[offset]) &* prime5
                hash = hash.rotated(11) &* prime1
                offset += 1
            }
            hash ^= hash >> 33
            hash &*= prime2
            hash ^= hash >> 29
            hash &*= prime3
            hash ^= hash >> 32
            return hash
        }
    }

    @inline(__always)
    private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        (acc &+ input &* prime2).rotated(31) &* prime1
    }

    @inline(__always)
    private static func merge(_ acc: UInt64, _ value: UInt64) -> UInt64 {
        (acc ^ round(0, value)) &* prime1 &+ prime4
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotated(_ bits: UInt64) -> UInt64 { (self << bits) | (self >> (64 - bits)) }
}
