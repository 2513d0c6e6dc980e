/// How bytes in a PMTiles archive are compressed, with the code the header stores.
///
/// The codes are fixed by the PMTiles v3 specification and must not change.
public enum PMTilesCompression: UInt8, Sendable, CaseIterable {
    case unknown = 0
    case none = 1
    case gzip = 2
    case brotli = 3
    case zstd = 4
}

extension PMTilesCompression: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .none: "none"
        case .gzip: "gzip"
        case .brotli: "brotli"
        case .zstd: "zstd"
        }
    }
}
