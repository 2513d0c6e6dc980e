extension PMTilesDirectory {
    /// The header and the root directory must lie within the first 16,384 bytes, so that a
    /// client gets both with its first request; the reference writer keeps the sum strictly below.
    static let rootByteLimit = 16_384 - PMTilesHeader.byteCount

    /// Compressed root and leaf directories for `entries` (sorted by tile id, non-empty).
    ///
    /// As the reference writer does: a single root directory when it fits under
    /// ``rootByteLimit``; otherwise leaves of 4,096 entries, doubled until the root that points to
    /// them fits. Leaves are concatenated in tile-id order and the root's offsets are relative to
    /// the start of the leaf section.
    static func rootAndLeaves(
        _ entries: [PMTilesEntry], compression: PMTilesInternalCompression
    ) throws(PMTilesError) -> (root: [UInt8], leaves: [UInt8]) {
        let single = try compression.apply(serialized(entries[...]), section: "root directory")
        if single.count < rootByteLimit { return (single, []) }
        var leafSize = 4_096
        while true {
            var pointers: [PMTilesEntry] = []
            var leaves: [UInt8] = []
            for start in stride(from: 0, to: entries.count, by: leafSize) {
                let leafEntries = entries[start..<min(start + leafSize, entries.count)]
                let leaf = try compression.apply(serialized(leafEntries), section: "leaf directory")
                pointers.append(
                    PMTilesEntry(
                        tileID: leafEntries.first!.tileID, offset: UInt64(leaves.count),
                        length: UInt32(leaf.count), runLength: 0))
                leaves += leaf
            }
            let root = try compression.apply(serialized(pointers[...]), section: "root directory")
            if root.count < rootByteLimit { return (root, leaves) }
            if pointers.count == 1 { throw .rootDirectoryTooLarge(byteCount: root.count) }
            leafSize *= 2
        }
    }
}
