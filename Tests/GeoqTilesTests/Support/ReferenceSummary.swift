/// The header as the reference reader decodes it (its own field names, snake case in JSON), the
/// metadata it parses, and what a walk of the directories with its directory decoder finds.
struct ReferenceSummary: Decodable {
    let version: Int
    let rootOffset: Int
    let rootLength: Int
    let leafDirectoryLength: Int
    let addressedTilesCount: Int
    let tileEntriesCount: Int
    let tileContentsCount: Int
    let clustered: Bool
    let internalCompression: Int
    let tileCompression: Int
    let tileType: Int
    let minZoom: Int
    let maxZoom: Int
    let minLonE7: Int
    let minLatE7: Int
    let maxLonE7: Int
    let maxLatE7: Int
    let centerZoom: Int
    let centerLonE7: Int
    let centerLatE7: Int
    /// `Reader.metadata()` written back as JSON.
    let metadataJson: String
    /// Root entries pointing to leaf directories.
    let leafCount: Int
    /// Entries with a run length, over all directories.
    let entryCount: Int
    /// The sum of their run lengths.
    let addressed: Int
    let distinctOffsets: Int
    /// Each entry's blob either follows the data seen so far or repeats an earlier one.
    let offsetsClustered: Bool
    /// Tile ids strictly increase across all directories in order.
    let idsSorted: Bool
}
