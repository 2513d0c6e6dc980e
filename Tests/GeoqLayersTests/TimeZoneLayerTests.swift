import Foundation
import GeoqCore
import GeoqJSON
import GeoqLayers
import GeoqPROJ
import GeoqQuery
import GeoqTestSupport
import Testing

/// The catalog's optional `timezones` layer (timezone-boundary-builder through
/// timezonefinder-data), against timezonefinder's own answers recorded in TimeZoneFixture.swift
/// (benchmarks/timezones/make-fixture.py). The tests that need the 226 MB file report
/// themselves skipped when it is not fetched; those about its absence always run.
@Suite struct TimeZoneLayerTests {
    static let catalog = try! sharedCatalog()
    static let spec = try! catalog.spec(named: "timezones")
    static let fetched = catalog.hasSource(of: spec)
    static let notFetched: Comment = "the time zones are not fetched: run tools/fetch-benchmark-data.sh timezones"
    /// Read and indexed once for the whole suite (it takes a while in a debug build).
    static let lookup: SectorLookup? =
        fetched
        ? SectorLookup(
            layer: try! LayerLoader().load(spec, from: catalog.sourceURL(of: spec)), geodesic: Geodesic.wgs84) : nil

    /// Every zone of the data set is known to Foundation's TimeZone (the system's tzdata),
    /// the ocean zones `Etc/GMT±N` included, so every answer can give its local time.
    @Test func foundationKnowsEveryZone() {
        #expect(timeZoneFixtureNames.count == 444)
        #expect(timeZoneFixtureNames.filter { TimeZone(identifier: $0) == nil } == [])
    }

    @Test func theCatalogEntryIsAnOptionalTimeZoneLayerUnderDataExternal() {
        #expect(Self.spec.timeZoneField == "tzid")
        #expect(Self.spec.fetch == "tools/fetch-benchmark-data.sh timezones")
        #expect(
            Self.catalog.sourceURL(of: Self.spec).path
                == TestData.packageRoot.appendingPathComponent("data/external/timezones/timezones.geojson").path)
    }

    @Test(.enabled(if: fetched, notFetched))
    func theLayerIsTheWholeDataSet() throws {
        let layer = try #require(Self.lookup).layer
        #expect(layer.features.count == 444)
        #expect(layer.features.map(\.id).sorted() == timeZoneFixtureNames)
        #expect(layer.features.allSatisfy { $0.name == $0.id })
        #expect(layer.timeZones?.unknownIDs == [])
        let vertices = layer.features.reduce(0) { $0 + ($1.geometry.areal?.vertexCount ?? 0) }
        #expect(vertices == 8_189_808)
    }

    /// Each place of the fixture is in the zone timezonefinder and tzfpy name (places at
    /// least about 2 km from any boundary).
    @Test(.enabled(if: fetched, notFetched))
    func agreesWithTimezonefinderAwayFromBoundaries() throws {
        let lookup = try #require(Self.lookup)
        #expect(timeZoneFixturePlaces.count > 250)
        for place in timeZoneFixturePlaces {
            let point = Point(latitude: place.latitude, longitude: place.longitude)
            let zones = lookup.layer.index.covering(point).map { lookup.layer.features[$0].id }
            #expect(zones == [place.zone], "\(place.latitude), \(place.longitude)")
        }
    }

    /// The local time at real places, the offsets from the zones' rules (Spain +01:00 in
    /// winter and +02:00 in summer, the Canaries an hour behind, India +05:30, the open
    /// Atlantic at 30° W the nautical zone Etc/GMT+2, that is UTC-2).
    @Test(.enabled(if: fetched, notFetched))
    func localTimesAtRealPlaces() throws {
        let lookup = try #require(Self.lookup)
        let january = try #require(LocalTime.instant(parsing: "2026-01-15T12:00:00Z"))
        let july = try #require(LocalTime.instant(parsing: "2026-07-15T12:00:00Z"))
        let cases: [(Double, Double, Date, String, String)] = [
            (42.8125, -1.6458, january, "Europe/Madrid", "2026-01-15T13:00:00+01:00"),
            (40.4168, -3.7038, july, "Europe/Madrid", "2026-07-15T14:00:00+02:00"),
            (28.1235, -15.4363, january, "Atlantic/Canary", "2026-01-15T12:00:00+00:00"),
            (28.6139, 77.209, july, "Asia/Kolkata", "2026-07-15T17:30:00+05:30"),
            (0, -30, july, "Etc/GMT+2", "2026-07-15T10:00:00-02:00"),
        ]
        for (latitude, longitude, instant, zone, local) in cases {
            let answer = lookup.answer(for: Point(latitude: latitude, longitude: longitude), at: instant)
            #expect(answer.timeZone?.zone == zone)
            #expect(answer.timeZone?.localTime == local)
            #expect(answer.inside.first?.location == "interior")
        }
    }

    @Test(.enabled(if: fetched, notFetched))
    func theAnswerWithItsTimeIsTheTextJSONEncoderWrites() throws {
        let lookup = try #require(Self.lookup)
        let answer = lookup.answer(
            for: Point(latitude: 40.4168, longitude: -3.7038),
            at: try #require(LocalTime.instant(parsing: "2026-07-15T12:00:00Z")))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(
            String(decoding: JSONText.of(answer), as: UTF8.self)
                == String(decoding: try encoder.encode(answer), as: UTF8.self))
    }

    // MARK: Without the data

    /// A copy of the catalog in a folder without `external/`: the time zones are not there.
    static func catalogWithoutTheData() throws -> (LayerCatalog, DataLocations) {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("layers.json")
        try FileManager.default.copyItem(at: Self.catalog.file, to: file)
        let locations = DataLocations(
            catalogFile: file, dataDirectory: TestData.directory,
            storeFile: directory.appendingPathComponent("absent.gpkg"))
        return (try locations.loadCatalog(), locations)
    }

    @Test func withoutTheDataTheLayerSaysHowToFetchIt() throws {
        let (catalog, _) = try Self.catalogWithoutTheData()
        let path = catalog.sourceURL(of: Self.spec).path
        #expect(!catalog.hasSource(of: Self.spec))
        do {
            _ = try LayerLoader().load("timezones", from: catalog)
            Issue.record("a layer without its file must not load")
        } catch {
            #expect(error == .sourceNotFetched(layer: "timezones", path: path, fetch: Self.spec.fetch!))
            #expect(error.code == "data-file-missing")
            #expect(error.description.contains("run `tools/fetch-benchmark-data.sh timezones`"))
            #expect(error.description.contains(path))
        }
    }

    /// Commands over every layer leave the optional layer out unless GEOQ_OPTIONAL_LAYERS
    /// names it; the other layers load as before.
    @Test func withoutTheDataTheOtherLayersWork() throws {
        let (catalog, locations) = try Self.catalogWithoutTheData()
        #expect(!catalog.listedLayers(environment: [:]).contains { $0.name == "timezones" })
        #expect(
            catalog.listedLayers(environment: ["GEOQ_OPTIONAL_LAYERS": "timezones"]).map(\.name)
                == catalog.layers.map(\.name))
        let library = try LayerLibrary(locations: locations)
        #expect(!library.names.contains("timezones"))
        #expect(try library.layer(named: "pamplona-sectors").features.count == 3)
        #expect(library.otherPolygonLayers(than: "pamplona-sectors").allSatisfy { $0.name != "timezones" })
    }
}
