/// Fallas feeds for the tests of ``GeoRSSPointReader``.
///
/// Written for geoq's tests (there is no copy of the original app's feed): they follow SPEC §2's
/// description of that feed — Atom, one `<entry>` per falla with `id`, `title`, `falleraMayor`,
/// `presidente`, `artistaMayor`, `anoCreacion`, `calle`, `cat2011`, `cat2012`, `presupuesto`, and
/// `<georss:point>lat lon</georss:point>`, latitude first.
enum FallasFeedFixtures {
    /// Five real fallas from Valencia's open data (`valencia/falles-fallas.csv`): the id is the
    /// CSV's "Id. Falla", the title its "Nom / Nombre", the people, motto (`lema`) and year its
    /// columns, `seccion` its current section, and the point its `geo_point_2d` copied digit for
    /// digit. The CSV has no 2011/2012 categories nor budgets: `cat2011`, `cat2012` and
    /// `presupuesto` are left empty rather than invented, and in entry 3 (Mercat Central)
    /// `artistaMayor` is empty and `anoCreacion` only blanks, as a feed with gaps would be.
    /// Characters are written as literal UTF-8 (`Matemàtic`, `l'Oest`), numeric references
    /// (`d&#39;Altea`, `Armi&#241;ana`) and XML's own entities (`&amp;`).
    static let fallas = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- Written for geoq's tests, following SPEC §2's description of the original app's feed
             (Atom, one entry per falla, georss:point latitude first). Names, people, years and
             positions are real: Valencia open data, falles-fallas.csv. -->
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:georss="http://www.georss.org/georss">
          <title>Fallas de Valencia</title>
          <id>urn:geoq:tests:fallas</id>
          <updated>2024-03-15T12:00:00Z</updated>
          <author><name>geoq tests</name></author>
          <entry>
            <id>9</id>
            <title>Na Jordana</title>
            <georss:point>39.48100415750942 -0.3801110157807973</georss:point>
            <falleraMayor>María Sánchez Martínez</falleraMayor>
            <presidente>Pere Borrego Pitarch</presidente>
            <artistaMayor>MARIO GUAL DEL OLMO</artistaMayor>
            <lema>MEMORIES DE L'AVENIR</lema>
            <anoCreacion>1884</anoCreacion>
            <calle>Na Jordana</calle>
            <seccion>E</seccion>
            <cat2011></cat2011>
            <cat2012></cat2012>
            <presupuesto></presupuesto>
          </entry>
          <entry>
            <id>12</id>
            <title>Convent de Jerusalem-Matemàtic Marzal</title>
            <georss:point>39.46643844060057 -0.37951592968874953</georss:point>
            <falleraMayor>Mariam Armi&#241;ana Herencia</falleraMayor>
            <presidente>Francisco Segura Hervás</presidente>
            <artistaMayor>PERE BAENAS</artistaMayor>
            <lema>OLIMPIA</lema>
            <anoCreacion>1893</anoCreacion>
            <calle>Convent de Jerusalem-Matemàtic Marzal</calle>
            <seccion>E</seccion>
            <cat2011/>
            <cat2012/>
            <presupuesto/>
          </entry>
          <entry>
            <id>1</id>
            <title>Mercat Central, pl.</title>
            <georss:point>
              39.47344194460842   -0.37826449710814597
            </georss:point>
            <falleraMayor>Celia Arnedo Barres</falleraMayor>
            <presidente>José Vte. Archer Retortillo</presidente>
            <artistaMayor></artistaMayor>
            <lema>In Victus</lema>
            <anoCreacion>   </anoCreacion>
            <calle>Mercat Central, pl.</calle>
            <seccion>1A</seccion>
            <cat2011/>
            <cat2012/>
            <presupuesto/>
          </entry>
          <entry>
            <id>14</id>
            <title>Almirall Cadarso-Comte d&#39;Altea</title>
            <georss:point>39.46583740509804 -0.36841578049487167</georss:point>
            <falleraMayor>Marta Garrigós Bueno</falleraMayor>
            <presidente>José Miguel Montalva Subirats</presidente>
            <artistaMayor>Antonio Perez Mena</artistaMayor>
            <lema>La raó de la desraó</lema>
            <anoCreacion>1930</anoCreacion>
            <calle>Almirall Cadarso-Comte d&#39;Altea</calle>
            <seccion>E</seccion>
            <cat2011/>
            <cat2012/>
            <presupuesto/>
          </entry>
          <entry>
            <id>10</id>
            <title>Avinguda de l'Oest</title>
            <link href="https://www.example.org/fallas/10"/>
            <georss:point>39.471170302164104 -0.37958649271837014</georss:point>
            <falleraMayor>Maya Maz Valle</falleraMayor>
            <presidente>Carlos Vicent Andrés</presidente>
            <artistaMayor>PACO TORRES</artistaMayor>
            <lema>Jeckyll &amp; miss Hide</lema>
            <anoCreacion>1949</anoCreacion>
            <calle>Avinguda de l'Oest</calle>
            <seccion>1B</seccion>
            <cat2011/>
            <cat2012/>
            <presupuesto/>
          </entry>
        </feed>
        """

    /// One falla entry around `point` (the text of `<georss:point>`, or no element when nil),
    /// in a feed whose first entry is Na Jordana; the entry under test is entry 2 and its
    /// `<entry>` tag is on line 13.
    static func feed(secondEntryPoint point: String?, extra: String = "") -> String {
        let pointElement = point.map { "      <georss:point>\($0)</georss:point>\n" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- Written for geoq's tests, following SPEC §2's description of the original app's feed. -->
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:georss="http://www.georss.org/georss"
                  xmlns:geo="http://www.w3.org/2003/01/geo/wgs84_pos#">
              <title>Fallas de Valencia</title>
              <entry>
                <id>9</id>
                <title>Na Jordana</title>
                <georss:point>39.48100415750942 -0.3801110157807973</georss:point>
                <calle>Na Jordana</calle>
              </entry>

              <entry>
                <id>34</id>
                <title>Pilar, pl.</title>

            \(pointElement)\(extra)      <calle>Pilar, pl.</calle>
              </entry>
            </feed>
            """
    }

    /// Malformed: `<presidente>` on line 9 is closed by `</president>`.
    static let malformed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- Written for geoq's tests, following SPEC §2's description of the original app's feed;
             malformed on purpose. -->
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:georss="http://www.georss.org/georss">
          <entry>
            <id>9</id>
            <title>Na Jordana</title>
            <georss:point>39.48100415750942 -0.3801110157807973</georss:point>
            <presidente>Pere Borrego Pitarch</president>
          </entry>
        </feed>
        """

    /// A feed without entries: valid, zero features.
    static let empty = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- Written for geoq's tests, following SPEC §2's description of the original app's feed:
             the feed before any falla is published. -->
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:georss="http://www.georss.org/georss">
          <title>Fallas de Valencia</title>
          <updated>2024-03-01T00:00:00Z</updated>
        </feed>
        """

    /// RSS 2.0 with W3C Basic Geo, as some GeoRSS producers write it.
    static let rssW3CGeo = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- Written for geoq's tests: the lenient RSS 2.0 + W3C Basic Geo variant. -->
        <rss version="2.0" xmlns:geo="http://www.w3.org/2003/01/geo/wgs84_pos#">
          <channel>
            <title>Fallas de Valencia</title>
            <item>
              <guid>falla-9</guid>
              <title>Na Jordana</title>
              <geo:lat>39.48100415750942</geo:lat>
              <geo:long>-0.3801110157807973</geo:long>
            </item>
            <item>
              <guid>falla-12</guid>
              <title>Convent de Jerusalem-Matemàtic Marzal</title>
              <geo:Point><geo:lat>39.46643844060057</geo:lat><geo:long>-0.37951592968874953</geo:long></geo:Point>
            </item>
          </channel>
        </rss>
        """
}
