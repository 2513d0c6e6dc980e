/// KML documents for the tests.
enum KMLFixtures {
    /// Written for geoq's tests (not a real export): it imitates a Google My Maps "Export to
    /// KML" of a map with one layer — shared styles, a CDATA description, ExtendedData, altitude
    /// 0 on every tuple, one polygon with a hole, one MultiGeometry of two polygons, a point with
    /// SchemaData, and a Placemark mixing a polygon and a point. Line numbers matter to the tests.
    static let sectors = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2">
          <Document>
            <name>Sectores de reparto</name>
            <description><![CDATA[Written for geoq's tests; imitates a Google My Maps export.]]></description>
            <Style id="poly-1976D2-1200-77-normal">
              <LineStyle>
                <color>ffd27619</color>
                <width>1.2</width>
              </LineStyle>
              <PolyStyle>
                <color>4dd27619</color>
                <fill>1</fill>
                <outline>1</outline>
              </PolyStyle>
            </Style>
            <StyleMap id="poly-1976D2-1200-77">
              <Pair>
                <key>normal</key>
                <styleUrl>#poly-1976D2-1200-77-normal</styleUrl>
              </Pair>
            </StyleMap>
            <Folder>
              <name>Sectores</name>
              <Placemark>
                <name>Sector 1</name>
                <description><![CDATA[Casco antiguo<br>Reparto: mañanas & tardes]]></description>
                <styleUrl>#poly-1976D2-1200-77</styleUrl>
                <ExtendedData>
                  <Data name="código">
                    <value>S1</value>
                  </Data>
                  <Data name="responsable">
                    <value>Ana Pérez</value>
                  </Data>
                </ExtendedData>
                <Polygon>
                  <outerBoundaryIs>
                    <LinearRing>
                      <tessellate>1</tessellate>
                      <coordinates>
                        -1.65,42.81,0
                        -1.63,42.81,0
                        -1.63,42.825,0
                        -1.65,42.825,0
                        -1.65,42.81,0
                      </coordinates>
                    </LinearRing>
                  </outerBoundaryIs>
                  <innerBoundaryIs>
                    <LinearRing>
                      <tessellate>1</tessellate>
                      <coordinates>
                        -1.645,42.815,0
                        -1.64,42.815,0
                        -1.64,42.82,0
                        -1.645,42.815,0
                      </coordinates>
                    </LinearRing>
                  </innerBoundaryIs>
                </Polygon>
              </Placemark>
              <Placemark id="sector-2">
                <name>Sector 2</name>
                <styleUrl>#poly-1976D2-1200-77</styleUrl>
                <ExtendedData>
                  <Data name="código">
                    <value>S2</value>
                  </Data>
                </ExtendedData>
                <MultiGeometry>
                  <Polygon>
                    <outerBoundaryIs>
                      <LinearRing>
                        <coordinates>-1.63,42.81,0 -1.61,42.81,0 -1.61,42.83,0 -1.63,42.81,0</coordinates>
                      </LinearRing>
                    </outerBoundaryIs>
                  </Polygon>
                  <Polygon>
                    <outerBoundaryIs>
                      <LinearRing>
                        <coordinates>-1.60,42.80,0 -1.59,42.80,0 -1.59,42.81,0 -1.60,42.80,0</coordinates>
                      </LinearRing>
                    </outerBoundaryIs>
                  </Polygon>
                </MultiGeometry>
              </Placemark>
              <Placemark>
                <name>Almacén</name>
                <ExtendedData>
                  <SchemaData schemaUrl="#almacenes">
                    <SimpleData name="código">A1</SimpleData>
                  </SchemaData>
                </ExtendedData>
                <Point>
                  <coordinates>-1.6432,42.8169,0</coordinates>
                </Point>
              </Placemark>
              <Placemark>
                <name>Sector 3</name>
                <MultiGeometry>
                  <Point>
                    <coordinates>-1.62,42.79</coordinates>
                  </Point>
                  <Polygon>
                    <outerBoundaryIs>
                      <LinearRing>
                        <coordinates>-1.63,42.78 -1.61,42.78 -1.61,42.80 -1.63,42.78</coordinates>
                      </LinearRing>
                    </outerBoundaryIs>
                  </Polygon>
                </MultiGeometry>
              </Placemark>
            </Folder>
          </Document>
        </kml>
        """

    /// A minimal document around `placemarks` (which start on line 4).
    static func document(_ placemarks: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2">
        <Document>
        \(placemarks)
        </Document>
        </kml>
        """
    }
}
