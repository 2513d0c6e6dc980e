import Foundation

/// A stay's id: 16 hex digits of FNV-1a (64 bits) over device, layer, feature and the entry
/// time in milliseconds, so that replaying the same fixes gives the same ids. Not a secret and
/// not unique by construction, but two stays share one only if they share all four (or collide
/// in 64 bits).
enum VisitID {
    static func make(device: String, layer: String, feature: String, entered: Date) -> String {
        let millis = Int64((entered.timeIntervalSince1970 * 1000).rounded())
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(device)\u{1F}\(layer)\u{1F}\(feature)\u{1F}\(millis)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
