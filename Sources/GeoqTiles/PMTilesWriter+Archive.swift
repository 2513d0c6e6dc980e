extension PMTilesWriter {
    /// The complete archive as one array.
    ///
    /// The header's zoom range is that of the added tiles; the counts are those of the tiles,
    /// directory entries and distinct contents.
    /// - Parameters:
    ///   - metadata: the JSON object of the archive (for MVT, with `vector_layers` as TileJSON 3.0
    ///     describes them), as UTF-8 bytes; stored through the internal compression, not parsed.
    ///   - extent: the bounds and centre the header states.
    /// - Throws: ``PMTilesError/noTiles``, ``PMTilesError/invalidExtent(reason:)``,
    ///   ``PMTilesError/compressionFailed(section:compression:)``,
    ///   ``PMTilesError/rootDirectoryTooLarge(byteCount:)``.
    public func finish(metadata: [UInt8], extent: PMTilesExtent) throws(PMTilesError) -> [UInt8] {
        let parts = try layOut(metadata: metadata, extent: extent)
        var archive = parts.head
        archive.reserveCapacity(parts.byteCount)
        for blob in parts.blobs { archive += blob }
        return archive
    }

    /// Hands the archive to `sink` in order, in chunks of about a mebibyte, without building it
    /// in memory: for writing to a file handle.
    ///
    /// Everything that can go wrong with the tiles or the extent is thrown as a ``PMTilesError``
    /// before `sink` sees a byte (see ``finish(metadata:extent:)``); after that, only errors that
    /// `sink` throws are rethrown, and the output is then incomplete.
    public func write(metadata: [UInt8], extent: PMTilesExtent, to sink: ([UInt8]) throws -> Void) throws {
        let parts = try layOut(metadata: metadata, extent: extent)
        try sink(parts.head)
        // Most tiles are small: gathering them spares a system call per tile.
        let chunkSize = 1 << 20
        var chunk: [UInt8] = []
        chunk.reserveCapacity(chunkSize)
        for blob in parts.blobs {
            if !chunk.isEmpty && chunk.count + blob.count > chunkSize {
                try sink(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
            if blob.count >= chunkSize {
                try sink(blob)
            } else {
                chunk += blob
            }
        }
        if !chunk.isEmpty { try sink(chunk) }
    }

    /// Orders the tiles by id, deduplicates and run-length encodes them, builds the directories
    /// and the header.
    func layOut(metadata: [UInt8], extent: PMTilesExtent) throws(PMTilesError) -> PMTilesArchiveParts {
        guard !contentIndexByTileID.isEmpty else { throw .noTiles }
        let extent = try extent.validated()
        let tiles = contentIndexByTileID.sorted { $0.key < $1.key }

        // Blobs take offsets in the order their first tile appears along the curve, which is what
        // makes the archive clustered.
        let unplaced = UInt64.max
        var offsetOfContent = [UInt64](repeating: unplaced, count: contents.count)
        var blobs: [[UInt8]] = []
        blobs.reserveCapacity(contents.count)
        var tileDataLength: UInt64 = 0
        var entries: [PMTilesEntry] = []
        for (id, contentIndex) in tiles {
            let content = contents[contentIndex]
            var offset = offsetOfContent[contentIndex]
            if offset == unplaced {
                offset = tileDataLength
                offsetOfContent[contentIndex] = offset
                blobs.append(content)
                tileDataLength += UInt64(content.count)
            }
            // Equal offsets mean equal contents, since each distinct content has one offset.
            if let last = entries.last, last.offset == offset, last.tileID + UInt64(last.runLength) == id,
                last.runLength < UInt32.max
            {
                entries[entries.count - 1].runLength += 1
            } else {
                entries.append(PMTilesEntry(tileID: id, offset: offset, length: UInt32(content.count), runLength: 1))
            }
        }

        let (root, leaves) = try PMTilesDirectory.rootAndLeaves(entries, compression: internalCompression)
        let compressedMetadata = try internalCompression.apply(metadata, section: "metadata")
        // Ids of stored tiles are valid, so their coordinates exist.
        let minZoom = try pmtilesTileCoordinates(ofTileID: tiles.first!.key).z
        let maxZoom = try pmtilesTileCoordinates(ofTileID: tiles.last!.key).z

        let rootOffset = UInt64(PMTilesHeader.byteCount)
        let metadataOffset = rootOffset + UInt64(root.count)
        let leavesOffset = metadataOffset + UInt64(compressedMetadata.count)
        let tileDataOffset = leavesOffset + UInt64(leaves.count)
        let header = PMTilesHeader(
            rootOffset: rootOffset, rootLength: UInt64(root.count),
            metadataOffset: metadataOffset, metadataLength: UInt64(compressedMetadata.count),
            leafDirectoriesOffset: leavesOffset, leafDirectoriesLength: UInt64(leaves.count),
            tileDataOffset: tileDataOffset, tileDataLength: tileDataLength,
            addressedTileCount: UInt64(tiles.count), tileEntryCount: UInt64(entries.count),
            tileContentCount: UInt64(blobs.count), clustered: true,
            internalCompression: internalCompression.code, tileCompression: tileCompression, tileType: tileType,
            minZoom: UInt8(minZoom), maxZoom: UInt8(maxZoom),
            minLongitudeE7: PMTilesHeader.e7(extent.west), minLatitudeE7: PMTilesHeader.e7(extent.south),
            maxLongitudeE7: PMTilesHeader.e7(extent.east), maxLatitudeE7: PMTilesHeader.e7(extent.north),
            centerZoom: UInt8(extent.centerZoom ?? minZoom),
            centerLongitudeE7: PMTilesHeader.e7(extent.centerLongitude),
            centerLatitudeE7: PMTilesHeader.e7(extent.centerLatitude))

        var head = header.serialized()
        head.reserveCapacity(Int(tileDataOffset))
        head += root
        head += compressedMetadata
        head += leaves
        return PMTilesArchiveParts(head: head, blobs: blobs, tileDataLength: Int(tileDataLength))
    }
}
