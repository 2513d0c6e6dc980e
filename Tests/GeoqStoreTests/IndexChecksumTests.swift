import Testing

@testable import GeoqStore

/// The stored index's checksum is XXH64 with seed 0: the values below are `xxhsum -H64`'s
/// (xxHash 0.8.1) for the same bytes.
@Suite struct IndexChecksumTests {
    static func checksum(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes(IndexChecksum.of) }

    @Test func knownValues() {
        #expect(Self.checksum([]) == 0xEF46_DB37_51D8_E999)
        #expect(Self.checksum(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(Self.checksum(Array("Nobody inspects the spammish repetition".utf8)) == 0xFBCE_A83C_8A37_8BF1)
        #expect(Self.checksum([UInt8](repeating: UInt8(ascii: "x"), count: 1000)) == 0x4CB9_A3B6_9CB7_00E1)
        // 1000 bytes i % 251: every tail length of the 32-byte loop is exercised by the values above.
        #expect(Self.checksum((0..<1000).map { UInt8($0 % 251) }) == 0xF306_F04A_A88B_54D3)
    }

    @Test func oneFlippedBitChangesIt() {
        let bytes = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let original = Self.checksum(bytes)
        for position in stride(from: 0, to: bytes.count, by: 97) {
            var flipped = bytes
            flipped[position] ^= 0x10
            #expect(Self.checksum(flipped) != original)
        }
    }

    /// Taken piece by piece as the store reads an index, the checksum is the one of the whole.
    @Test func inPiecesItIsTheChecksumOfTheWhole() {
        var random = SystemRandomNumberGenerator()
        for count in [0, 31, 32, 33, 1000, 4096, 100_003] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            let whole = Self.checksum(bytes)
            for _ in 0..<5 {
                let value = bytes.withUnsafeBytes { all -> UInt64 in
                    var running = IndexChecksum.Running()
                    var at = 0
                    while all.count - at >= 32 {
                        let stripes = Int.random(in: 1...max(1, (all.count - at) / 32), using: &random)
                        running.add(UnsafeRawBufferPointer(rebasing: all[at..<at + 32 * stripes]))
                        at += 32 * stripes
                    }
                    return running.finish(tail: UnsafeRawBufferPointer(rebasing: all[at...]))
                }
                #expect(value == whole, "\(count) bytes")
            }
        }
        let known = (0..<1000).map { UInt8($0 % 251) }
        known.withUnsafeBytes { all in
            var running = IndexChecksum.Running()
            running.add(UnsafeRawBufferPointer(rebasing: all[0..<32]))
            running.add(UnsafeRawBufferPointer(rebasing: all[32..<992]))
            #expect(running.finish(tail: UnsafeRawBufferPointer(rebasing: all[992...])) == 0xF306_F04A_A88B_54D3)
        }
    }
}
