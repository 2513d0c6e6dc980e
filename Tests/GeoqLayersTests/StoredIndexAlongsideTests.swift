import Foundation
import GeoqCore
import GeoqQuery
import GeoqStore
import Testing

@testable import GeoqLayers

/// A large stored index is read on a second connection while the rows are read: the same index
/// and the same verdicts as reading both on one connection. (The catalog's layers have small
/// indexes; here every size counts as large.)
@Suite struct StoredIndexAlongsideTests {
    @Test(arguments: StoredIndexTests.layers)
    func readAlongsideItAnswersAsABuiltIndex(name: String) throws {
        let store = try StoredIndexTests.importStore([name])
        let package = try GeoPackage.open(at: store.file.path, create: false, readOnly: true)
        let found = try StoredIndex.polygonLayer(of: name, in: package, readAlongsideFrom: 0) { () throws(LayerError) in
            do { return try package.features(of: name) } catch {
                throw .storeUnreadable(path: store.file.path, reason: "\(error)")
            }
        }
        #expect(found.origin == .stored)
        let built = Layer.index(of: found.features)
        StoredIndexTests.expectSameAnswers(
            found.index, built, on: StoredIndexTests.points(around: built.boundingBox, count: 5_000, seed: 11))
    }

    @Test(.enabled(if: StoredIndexTests.hasSQLite3, "sqlite3 not installed"))
    func aDamagedIndexReadAlongsideIsRebuilt() throws {
        let name = "valencia-census-sections"
        let store = try StoredIndexTests.importStore([name])
        try StoredIndexTests.sqlite(store.file, StoredIndexTests.damages[0].sql)
        let package = try GeoPackage.open(at: store.file.path, create: false, readOnly: true)
        let found = try StoredIndex.polygonLayer(of: name, in: package, readAlongsideFrom: 0) { () throws(LayerError) in
            do { return try package.features(of: name) } catch {
                throw .storeUnreadable(path: store.file.path, reason: "\(error)")
            }
        }
        guard case .rebuilt(let why) = found.origin else {
            Issue.record("a damaged index was used: \(found.origin)")
            return
        }
        #expect(why.hasPrefix("damaged: checksum"), "\(why)")
        #expect(found.index.count == found.features.count)
    }
}
