import Foundation
import Testing

@testable import GeoqIncidents

/// Titles, guids and links are trimmed without Foundation; Foundation's
/// `trimmingCharacters(in: .whitespacesAndNewlines)`, which trimmed them before, is the second
/// implementation.
@Suite struct WhiteSpaceTrimmingTests {
    @Test func everyScalarOfTheBasicPlaneTrimsAsFoundationDoes() {
        var disagreements: [String] = []
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }  // surrogates
            let s = String(Character(scalar))
            for text in [s, "\(s)a\(s)", "\(s)\(s)", " \(s)x\(s) ", "a\(s)b", "\t\(s)\n"] {
                if text.trimmingWhiteSpace() != text.trimmingCharacters(in: .whitespacesAndNewlines) {
                    disagreements.append(String(value, radix: 16))
                }
            }
        }
        #expect(disagreements.isEmpty)
    }

    @Test func combiningMarksAndPlanesBeyond() {
        for text in [" \u{301}x ", "x\u{A0}\u{301}", "\u{3000}𝔸\u{2029}", "\u{1F600} ", "", " ", "\r\n", "a"] {
            #expect(
                text.trimmingWhiteSpace() == text.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(text.debugDescription)")
        }
    }
}
