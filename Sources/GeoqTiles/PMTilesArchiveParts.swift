/// A laid-out archive: the header, root directory, metadata and leaf directories as one array,
/// followed by the distinct tile blobs in the order the data section holds them.
struct PMTilesArchiveParts: Sendable {
    var head: [UInt8]
    var blobs: [[UInt8]]
    var tileDataLength: Int

    var byteCount: Int { head.count + tileDataLength }
}
