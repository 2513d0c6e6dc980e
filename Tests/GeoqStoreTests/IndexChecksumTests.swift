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
}
