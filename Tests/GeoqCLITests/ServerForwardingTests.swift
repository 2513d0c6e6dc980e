import Foundation
import GeoqTestSupport
import Testing

@testable import GeoqCLI

/// `geoq` hands what needs the network stack to `geoq-server` before parsing anything, and
/// answers everything else itself.
@Suite struct ServerForwardingTests {
    static let none: [String: String] = [:]

    @Test func storeCommandsStayInGeoq() {
        #expect(!ServerForwarding.isNeeded(for: ["which-sector", "42.81", "-1.64"], environment: Self.none))
        #expect(!ServerForwarding.isNeeded(for: ["layers", "--store", "data/geoq.gpkg"], environment: Self.none))
        #expect(!ServerForwarding.isNeeded(for: ["help", "park"], environment: ["GEOQ_STORE": "other.gpkg"]))
        // An operand after `--` is data, not a store.
        #expect(!ServerForwarding.isNeeded(for: ["info", "--", "postgresql://x/y"], environment: Self.none))
    }

    @Test func serverCommandsGoToGeoqServer() {
        #expect(ServerForwarding.isNeeded(for: ["serve", "--port", "8080"], environment: Self.none))
        #expect(ServerForwarding.isNeeded(for: ["keys", "list", "--format", "json"], environment: Self.none))
        #expect(ServerForwarding.isNeeded(for: ["hooks", "add", "https://example.org/h"], environment: Self.none))
        #expect(ServerForwarding.isNeeded(for: ["help", "serve"], environment: Self.none))
    }

    @Test func postgreSQLStoresGoToGeoqServer() {
        #expect(
            ServerForwarding.isNeeded(for: ["layers", "--store", "postgresql://geoq@db/geoq"], environment: Self.none))
        #expect(
            ServerForwarding.isNeeded(for: ["import", "--all", "--store=Postgres://db/geoq"], environment: Self.none))
        #expect(ServerForwarding.isNeeded(for: ["layers"], environment: ["GEOQ_STORE": "postgresql://db/geoq"]))
    }

    /// The real `serve` answers `geoq serve --help` (its long help is geoq-server's own).
    @Test func serveHelpComesFromGeoqServer() throws {
        let r = try GeoqBinaryTests.run(["serve", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("USAGE: geoq serve"))
        #expect(r.stdout.contains("Loads and indexes every layer"))
    }

    /// Without geoq-server beside it, `geoq serve` says how to build it and exits 69.
    @Test func missingServerIsExplained() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-alone-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let alone = folder.appendingPathComponent("geoq")
        try FileManager.default.copyItem(at: GeoqBinaryTests.binary, to: alone)
        let r = try ExternalTool.run(alone, ["serve", "--port", "0"], input: "", environment: [:], directory: folder)
        #expect(r.status == 69)
        #expect(r.stderr.contains("serve runs in geoq-server"))
        #expect(r.stderr.contains("swift build --product geoq-server"))
        #expect(r.stdout.isEmpty)
    }
}
