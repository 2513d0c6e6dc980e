/// Tile bytes as a dictionary key, so that identical tiles are stored once.
///
/// Equality compares every byte, so unlike a digest it cannot confuse two different tiles.
struct PMTilesContent: Hashable, Sendable {
    let bytes: [UInt8]

    static func == (lhs: PMTilesContent, rhs: PMTilesContent) -> Bool {
        lhs.bytes == rhs.bytes
    }

    func hash(into hasher: inout Hasher) {
        // Array's own hashing feeds the hasher one byte at a time; the whole buffer at once is
        // much faster on tiles of tens of kilobytes.
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
