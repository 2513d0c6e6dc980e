import Foundation
import GeoqLayers
import GeoqPostGIS
import GeoqTestSupport
import Testing

/// Store addresses read with the PostgreSQL backend, as the faces read `--store` and
/// `$GEOQ_STORE`, and the backend's failures as the layers report them.
@Suite struct StoreAddressParsingTests {
    @Test func anAddressInTheEnvironmentIsTheDatabaseNeverAFile() throws {
        let root = TestData.packageRoot
        // An address in GEOQ_STORE is the database, never a file; an unknown scheme is an error.
        let database = try DataLocations.resolve(
            environment: ["GEOQ_STORE": "postgresql://geoq@db.example:6543/city?schema=pamplona"],
            workingDirectory: root, executable: nil, sharedBackend: PostGISBackend.self)
        #expect(
            database.store
                == .shared(
                    PostGISBackend(
                        address: PostgresAddress(
                            user: "geoq", host: "db.example", port: 6543, database: "city", schema: "pamplona")))
        )
        #expect(throws: LayerError.self) { try database.storeFile }
        #expect {
            try DataLocations.resolve(
                environment: ["GEOQ_STORE": "ftp://x/y"], workingDirectory: root, executable: nil,
                sharedBackend: PostGISBackend.self)
        } throws: { error in
            guard case .store(let failure) = error as? LayerError else { return false }
            return failure.kind == .badAddress
        }
    }

    /// Every failure of the PostgreSQL store keeps, as the layers' error, the code, the message
    /// and the transience it has always had (the faces' exit statuses and problems follow them).
    @Test func failuresKeepTheirCodesAndMessages() {
        let address = "postgresql://geoq@db.example:5432/geoq"
        let failures: [PostGISError] = [
            .badAddress(address: address, reason: "no host"), .unreachable(address: address, reason: "refused"),
            .tlsRefused(address: address, reason: "no TLS"),
            .credentialsRefused(address: address, reason: "password authentication failed"),
            .noDatabase(address: address), .noPostGIS(address: address, reason: "no extension"),
            .connectionLost(address: address, reason: "reset"),
            .queryFailed(address: address, sqlState: "22P02", message: "bad input"),
        ]
        for failure in failures {
            let reported = SharedStoreError(failure)
            #expect(reported.code == failure.code)
            #expect(reported.description == failure.description)
            #expect(reported.isTransient == failure.isTransient)
        }
    }
}
