/// What the Python reference reader (PyPI `pmtiles`) found in an archive.
struct ReferenceReading {
    let summary: ReferenceSummary
    /// Every tile that `all_tiles` yields, keyed `z/x/y`.
    let traversal: [String: [UInt8]]
    /// What `Reader.get` answered for each probe, keyed `z/x/y`; nil when it found no tile.
    let probes: [String: [UInt8]?]
}
