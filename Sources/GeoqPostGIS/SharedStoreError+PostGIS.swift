import GeoqLayers

extension SharedStoreError {
    /// `error` as the layers report a shared store's failures: its kind, and its whole sentence
    /// (so that messages, codes and exit statuses are the ones this store has always given).
    public init(_ error: PostGISError) {
        let kind: Kind =
            switch error {
            case .badAddress: .badAddress
            case .unreachable: .unreachable
            case .tlsRefused: .tlsRefused
            case .credentialsRefused: .credentialsRefused
            case .noDatabase: .noDatabase
            case .noPostGIS: .noSpatialExtension
            case .connectionLost: .connectionLost
            case .queryFailed: .queryFailed
            }
        self.init(kind, error.description)
    }
}
