import GeoqTestSupport
import Testing

@testable import GeoqFormats

/// The reader's own UTF-8 check over bytes in memory gives the offset the standard library's
/// decoder gives (an independent implementation, one scalar at a time), on text mixing ASCII
/// runs with every length of sequence, cut and damaged at random, and on the edge cases of
/// the table of well-formed sequences.
@Suite struct UTF8ValidationTests {
    /// The standard library's answer: its decoder over a sequence that has no contiguous
    /// storage, so ``TextDecoding/firstInvalidUTF8Offset(_:)`` takes its generic path.
    func decoderOffset(_ bytes: [UInt8]) -> Int? {
        TextDecoding.firstInvalidUTF8Offset(bytes.lazy.map { $0 })
    }

    func contiguousOffset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { TextDecoding.firstInvalidUTF8Offset(contiguous: $0) }
    }

    @Test func agreesWithTheDecoderOnDamagedText() {
        var rng = SeededRandom(seed: 8)
        let samples = ["Pamplona", "Iruña", "València", "Ελλάδα", "中华人民共和国", "𝔊𝔢𝔬", "ñ€𐍈", "plain ascii text here"]
        var invalid = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(rng.uniform(0...6.99)) {
                bytes += Array(samples[Int(rng.uniform(0...Double(samples.count) - 0.01))].utf8)
            }
            // Damage: a byte changed to any value, or the text cut, now and then.
            if !bytes.isEmpty && rng.uniform(0...1) < 0.5 {
                bytes[Int(rng.uniform(0...Double(bytes.count) - 0.01))] = UInt8(rng.uniform(0...255.99))
            }
            if !bytes.isEmpty && rng.uniform(0...1) < 0.2 {
                bytes.removeLast(Int(rng.uniform(0...Double(min(3, bytes.count)))))
            }
            let expected = decoderOffset(bytes)
            if expected != nil { invalid += 1 }
            #expect(contiguousOffset(bytes) == expected, "\(bytes)")
        }
        #expect(invalid > 1_000)
    }

    @Test func edgesOfTheTable() {
        let cases: [[UInt8]] = [
            [0xC0, 0x80], [0xC1, 0xBF], [0xC2, 0x80], [0xDF, 0xBF],  // overlong two-byte forms, then the first valid
            [0xE0, 0x9F, 0x80], [0xE0, 0xA0, 0x80],  // overlong three-byte, first valid
            [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80],  // last before the surrogates, first surrogate
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80],  // overlong four-byte, first valid
            [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],  // U+10FFFF, beyond
            [0x80], [0xBF], [0xFE], [0xFF], [0xE2, 0x82], [0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0xE2],
        ]
        for bytes in cases {
            #expect(contiguousOffset(bytes) == decoderOffset(bytes), "\(bytes)")
        }
    }
}
