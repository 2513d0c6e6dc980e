/// The compression a PMTiles writer applies to its directories and metadata, handed in by the
/// caller so that this module links no compression library.
///
/// Contract: `compress` must produce bytes that a reader decompresses with the algorithm named by
/// `code` (for ``PMTilesCompression/gzip``, a complete gzip member as `gzip -c -n` writes it);
/// it returns `nil` when it cannot compress. The writer does not check the output against
/// `code`: a mismatch yields an archive that readers cannot open.
public struct PMTilesInternalCompression: Sendable {
    /// The code written into the header's internal compression field.
    public let code: PMTilesCompression
    /// Compresses one directory or the metadata.
    public let compress: @Sendable ([UInt8]) -> [UInt8]?

    public init(code: PMTilesCompression, compress: @escaping @Sendable ([UInt8]) -> [UInt8]?) {
        self.code = code
        self.compress = compress
    }

    /// Directories and metadata stored as they are. Note that some readers, among them the
    /// Python reference reader, assume gzip and cannot open such archives.
    public static let none = PMTilesInternalCompression(code: .none) { $0 }

    /// Compresses `bytes`, naming `section` in the error when the closure refuses.
    func apply(_ bytes: [UInt8], section: String) throws(PMTilesError) -> [UInt8] {
        guard let compressed = compress(bytes) else {
            throw .compressionFailed(section: section, compression: code)
        }
        return compressed
    }
}
