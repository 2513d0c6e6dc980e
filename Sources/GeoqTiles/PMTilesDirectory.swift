/// The byte form of PMTiles directories (specification v3, "Directory Serialization").
///
/// Before internal compression, a directory is varints: the entry count, then column by column
/// the tile ids as differences from the previous id, the run lengths, the lengths, and the
/// offsets, where 0 means "right after the previous entry's bytes" and any other value is the
/// offset plus one. Columns of small, similar numbers are what makes the compression effective.
enum PMTilesDirectory {
    /// The uncompressed bytes of `entries`, which must be sorted by tile id and non-empty.
    static func serialized(_ entries: ArraySlice<PMTilesEntry>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 5 + 5)
        appendVarint(UInt64(entries.count), to: &bytes)
        var previousID: UInt64 = 0
        for entry in entries {
            appendVarint(entry.tileID - previousID, to: &bytes)
            previousID = entry.tileID
        }
        for entry in entries { appendVarint(UInt64(entry.runLength), to: &bytes) }
        for entry in entries { appendVarint(UInt64(entry.length), to: &bytes) }
        var previous: PMTilesEntry?
        for entry in entries {
            if let previous, entry.offset == previous.offset + UInt64(previous.length) {
                appendVarint(0, to: &bytes)
            } else {
                appendVarint(entry.offset + 1, to: &bytes)
            }
            previous = entry
        }
        return bytes
    }

    /// Appends `value` as an unsigned LEB128 varint: seven bits a byte, least significant first,
    /// the high bit set on every byte but the last.
    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
