import Testing

/// A reader of PMTiles v3 archives written from the specification's text, kept to what the
/// tests check when no Python reference reader is at hand: header fields and every tile reached
/// through the root and leaf directories.
struct SpecArchiveReader {
    let bytes: [UInt8]
    /// Undoes the archive's internal compression.
    let decompress: ([UInt8]) -> [UInt8]?

    /// A directory row: `runLength` 0 points to a leaf directory.
    typealias Entry = (tileID: UInt64, offset: UInt64, length: UInt64, runLength: UInt64)

    func uint64(at position: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[position + $1]) << (8 * UInt64($1)) }
    }

    func int32(at position: Int) -> Int32 {
        Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(bytes[position + $1]) << (8 * UInt32($1)) })
    }

    var rootOffset: Int { Int(uint64(at: 8)) }
    var rootLength: Int { Int(uint64(at: 16)) }
    var metadataOffset: Int { Int(uint64(at: 24)) }
    var metadataLength: Int { Int(uint64(at: 32)) }
    var leavesOffset: Int { Int(uint64(at: 40)) }
    var leavesLength: Int { Int(uint64(at: 48)) }
    var tileDataOffset: Int { Int(uint64(at: 56)) }
    var tileDataLength: Int { Int(uint64(at: 64)) }
    var addressedTiles: UInt64 { uint64(at: 72) }
    var tileEntries: UInt64 { uint64(at: 80) }
    var tileContents: UInt64 { uint64(at: 88) }
    var clustered: UInt8 { bytes[96] }
    var minZoom: UInt8 { bytes[100] }
    var maxZoom: UInt8 { bytes[101] }

    var metadata: [UInt8]? { decompress(Array(bytes[metadataOffset..<metadataOffset + metadataLength])) }

    /// The entries of the directory at `offset`, or nil when it does not decode.
    func directory(at offset: Int, length: Int) -> [Entry]? {
        guard let raw = decompress(Array(bytes[offset..<offset + length])) else { return nil }
        var position = 0
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while position < raw.count {
                let byte = raw[position]
                position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }
        guard let count = varint().map(Int.init) else { return nil }
        var entries = [Entry](repeating: (0, 0, 0, 0), count: count)
        var id: UInt64 = 0
        for i in 0..<count {
            guard let delta = varint() else { return nil }
            id += delta
            entries[i].tileID = id
        }
        for i in 0..<count {
            guard let runLength = varint() else { return nil }
            entries[i].runLength = runLength
        }
        for i in 0..<count {
            guard let length = varint() else { return nil }
            entries[i].length = length
        }
        for i in 0..<count {
            guard let v = varint() else { return nil }
            entries[i].offset = i > 0 && v == 0 ? entries[i - 1].offset + entries[i - 1].length : v - 1
        }
        return position == raw.count ? entries : nil
    }

    /// The tile entries of all directories in order, and how many leaves hold them; nil when a
    /// directory does not decode.
    func tileEntriesAndLeafCount() -> (entries: [Entry], leaves: Int)? {
        guard let root = directory(at: rootOffset, length: rootLength) else { return nil }
        var entries: [Entry] = []
        var leaves = 0
        for entry in root {
            if entry.runLength > 0 {
                entries.append(entry)
            } else {
                leaves += 1
                guard let leaf = directory(at: leavesOffset + Int(entry.offset), length: Int(entry.length)) else {
                    return nil
                }
                entries += leaf
            }
        }
        return (entries, leaves)
    }

    /// Every addressed tile's bytes by tile id.
    func allTiles() -> [UInt64: [UInt8]]? {
        guard let (entries, _) = tileEntriesAndLeafCount() else { return nil }
        var tiles: [UInt64: [UInt8]] = [:]
        for entry in entries {
            let start = tileDataOffset + Int(entry.offset)
            let blob = Array(bytes[start..<start + Int(entry.length)])
            for k in 0..<entry.runLength { tiles[entry.tileID + k] = blob }
        }
        return tiles
    }
}

extension SpecArchiveReader: CustomTestStringConvertible {
    /// Keeps failure messages short: the archive's bytes would fill pages.
    var testDescription: String { "archive of \(bytes.count) bytes" }
}
