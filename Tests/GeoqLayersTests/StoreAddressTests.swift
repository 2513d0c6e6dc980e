import Foundation
import GeoqLayers
import Testing

/// A store text is an address or a file path, never an address taken for a file; which addresses
/// are read is the shared-store backend's business (see GeoqPostGISTests for PostgreSQL's).
@Suite struct StoreAddressTests {
    @Test(arguments: [
        ("postgresql://u@h/db", true), ("postgres://h/db", true), ("https://example.org/x.gpkg", true),
        ("data/geoq.gpkg", false), ("/var/lib/geoq/geoq.gpkg", false), ("postgresql:", false),
        ("./weird://name", false),
    ])
    func looksLikeAddress(text: String, expected: Bool) {
        #expect(StoreAddress.looksLikeAddress(text) == expected)
    }

    @Test func aFilePathIsAGeoPackageRelativeToTheWorkingDirectory() throws {
        let folder = URL(fileURLWithPath: "/srv/geoq", isDirectory: true)
        let store = try StoreAddress(parsing: "data/geoq.gpkg", relativeTo: folder)
        #expect(store == .geoPackage(URL(fileURLWithPath: "/srv/geoq/data/geoq.gpkg")))
        #expect(store.file?.path == "/srv/geoq/data/geoq.gpkg")
    }

    /// A program without a database client refuses an address, naming only its scheme (the rest
    /// may hold a password).
    @Test func withoutABackendAnAddressIsABadAddress() {
        #expect {
            try StoreAddress(parsing: "postgresql://u:hunter2@h/db", environment: [:])
        } throws: { error in
            guard case .store(let failure) = error as? LayerError else { return false }
            return failure.kind == .badAddress && failure.code == "store-bad-address"
                && failure.description.contains("postgresql://") && !failure.description.contains("hunter2")
        }
    }
}
