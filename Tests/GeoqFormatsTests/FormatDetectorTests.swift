import Foundation
import GeoqFormats
import GeoqTestSupport
import Testing

@Suite("readFeatures / FormatDetector")
struct FormatDetectorTests {
    @Test(
        arguments: [
            ("a.geojson", FileFormat.geoJSON as FileFormat?), ("a.JSON", .geoJSON), ("a.kml", .kml),
            ("a.SHP", .shapefile), ("a.csv", .opendatasoftCSV), ("a.kmz", nil), ("a.dbf", nil), ("a", nil),
            // .xml needs its content (FormatDetector.format(ofFileAt:)); .atom and .rss are feeds unless it says otherwise.
            ("a.xml", nil), ("a.atom", .geoRSSFeed), ("a.RSS", .geoRSSFeed),
        ])
    func byExtension(_ name: String, _ expected: FileFormat?) {
        #expect(FormatDetector.format(of: URL(fileURLWithPath: "/tmp/" + name)) == expected)
    }

    /// One real file per format, read through the single entry point.
    @Test(
        arguments: [
            ("pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json", 13),
            ("pamplona/shp_epsg25830/MOVI_Pol_ZonaAccesoRestr.shp", 2),
            ("valencia/distritos_valencia.csv", 22),
        ])
    func readsEachFormat(_ path: String, _ count: Int) throws {
        let c = try readFeatures(at: TestData.url(path))
        #expect(c.features.count == count)
        #expect(c.source.hasSuffix(path))
    }

    @Test func readsKML() throws {
        let url = try writeTemporaryFile(KMLFixtures.sectors, name: "sectores.kml")
        #expect(try readFeatures(at: url).features.count == 4)
    }

    @Test func unsupportedExtension() {
        let error = formatError { () throws(FormatError) in try readFeatures(at: URL(fileURLWithPath: "/tmp/mapa.kmz"))
        }
        expect(error, code: .unsupportedFormat, mentions: ["/tmp/mapa.kmz", "'.kmz'", "unzip it"])
    }
}
