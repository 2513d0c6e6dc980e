import GeoqFormats
import Testing

@Suite("CRSDeclaration")
struct CRSDeclarationTests {
    /// Pamplona's .prj (shp_epsg25830/*.prj), verbatim.
    static let etrs89UTM30N =
        #"PROJCS["ETRS89 / UTM zone 30N",GEOGCS["ETRS89",DATUM["European_Terrestrial_Reference_System_1989",SPHEROID["GRS 1980",6378137,298.257222101,AUTHORITY["EPSG","7019"]],AUTHORITY["EPSG","6258"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.01745329251994328,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4258"]],UNIT["metre",1,AUTHORITY["EPSG","9001"]],PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",-3],PARAMETER["scale_factor",0.9996],PARAMETER["false_easting",500000],PARAMETER["false_northing",0],AUTHORITY["EPSG","25830"],AXIS["Easting",EAST],AXIS["Northing",NORTH]]"#
    /// Natural Earth's ne_10m_admin_0_countries_deu.prj, verbatim.
    static let naturalEarth =
        #"GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]"#

    @Test(
        "names from GeoJSON crs members and command lines",
        arguments: [
            ("urn:ogc:def:crs:EPSG::4326", CRSDeclaration.epsg(4326)),
            ("urn:ogc:def:crs:EPSG::25830", .epsg(25830)),
            ("urn:ogc:def:crs:EPSG:6.6:4326", .epsg(4326)),
            ("EPSG:25830", .epsg(25830)),
            ("epsg:4258", .epsg(4258)),
            ("http://www.opengis.net/def/crs/EPSG/0/4326", .epsg(4326)),
            ("urn:ogc:def:crs:OGC:1.3:CRS84", .definition("urn:ogc:def:crs:OGC:1.3:CRS84")),
            ("EPSG:abc", .definition("EPSG:abc")),
        ])
    func names(_ name: String, _ expected: CRSDeclaration) {
        #expect(CRSDeclaration(name: name) == expected)
    }

    @Test(
        "WGS84 geographic or not",
        arguments: [
            (CRSDeclaration.epsg(4326), true),
            (.definition("urn:ogc:def:crs:OGC:1.3:CRS84"), true),
            (.definition("OGC:CRS84"), true),
            (.definition("urn:ogc:def:crs:EPSG::4326"), true),
            (.definition(naturalEarth), true),
            (
                .definition(
                    #"GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433],AUTHORITY["EPSG","4326"]]"#
                ), true
            ),
            // ETRS89 is a distinct datum (within a metre of WGS84 in Europe, but not the same).
            (.epsg(4258), false),
            (.definition("EPSG:4258"), false),
            (.epsg(25830), false),
            (.definition(etrs89UTM30N), false),
            (.definition("not a crs"), false),
        ])
    func wgs84(_ crs: CRSDeclaration, _ expected: Bool) {
        #expect(crs.isWGS84Geographic == expected, "\(crs)")
    }

    @Test func projStrings() {
        #expect(CRSDeclaration.epsg(25830).projString == "EPSG:25830")
        #expect(CRSDeclaration.definition("urn:ogc:def:crs:OGC:1.3:CRS84").projString == "OGC:CRS84")
        #expect(CRSDeclaration.definition("urn:ogc:def:crs:EPSG::25830").projString == "EPSG:25830")
        #expect(CRSDeclaration.definition(Self.etrs89UTM30N).projString == Self.etrs89UTM30N)
    }

    @Test func prjText() throws {
        let pamplona = try #require(CRSDeclaration(prj: Self.etrs89UTM30N + "\n"))
        #expect(pamplona == .definition(Self.etrs89UTM30N))
        // The top-level AUTHORITY, not the GEOGCS's 4258 nor the spheroid's 7019.
        #expect(pamplona.epsgCode == 25830)
        #expect(pamplona.displayName == "ETRS89 / UTM zone 30N")
        #expect(CRSDeclaration(prj: Self.naturalEarth) == .epsg(4326))
        #expect(CRSDeclaration(prj: "  \n") == nil)
    }
}
