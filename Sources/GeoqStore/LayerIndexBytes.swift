/// A layer's packed index as it is stored: what it is, in which format version, its bytes.
public struct LayerIndexBytes: Sendable {
    public var kind: GeoPackage.IndexKind
    public var format: Int
    public var bytes: [UInt8]

    public init(kind: GeoPackage.IndexKind, format: Int, bytes: [UInt8]) {
        self.kind = kind
        self.format = format
        self.bytes = bytes
    }
}
