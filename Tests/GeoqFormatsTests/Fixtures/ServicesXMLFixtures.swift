/// Services documents for the tests of ``ServicesXMLReader``.
///
/// Written for geoq's tests (there is no copy of the original app's services file): they follow
/// SPEC §2's description of it — `<Anuncios>` holding one element per service, named by its type
/// (`<Restaurantes id="3">`), with `localeName`, `direccion`, `latitud`, `longitud`, `tipo`,
/// `telefono` and `texto`. The businesses are invented (names say so, phone numbers are
/// placeholders); the streets are real Valencia streets near the fallas of
/// ``FallasFeedFixtures/fallas``, and two services write their coordinates with a decimal comma.
enum ServicesXMLFixtures {
    static let services = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- Written for geoq's tests, following SPEC §2's description of the original app's
             services XML. The businesses are invented. -->
        <Anuncios>
          <Restaurantes id="3">
            <localeName>Restaurante de prueba Na Jordana</localeName>
            <direccion>Carrer de Na Jordana, 10</direccion>
            <latitud>39.4809</latitud>
            <longitud>-0.3803</longitud>
            <tipo>Arrocería</tipo>
            <telefono>960 000 003</telefono>
            <texto>Paella &amp; all i pebre; menú fallero</texto>
          </Restaurantes>
          <Tiendas id="8">
            <localeName>Tienda de prueba del Mercat</localeName>
            <direccion>Plaça del Mercat, 1</direccion>
            <latitud>39,4734</latitud>
            <longitud>-0,3783</longitud>
            <tipo>Indumentaria valenciana</tipo>
            <telefono></telefono>
            <texto/>
          </Tiendas>
          <Restaurantes id="5">
            <localeName>Horchatería de prueba</localeName>
            <direccion>Plaça de l'Ajuntament, 2</direccion>
            <latitud> 39,46985 </latitud>
            <longitud> -0,37632 </longitud>
            <tipo>Horchatería</tipo>
            <telefono>960 000 005</telefono>
            <texto>Bu&#241;uelos de calabaza</texto>
          </Restaurantes>
        </Anuncios>
        """

    /// One service with the given `<latitud>` and `<longitud>` texts (no element when nil); its
    /// start tag is on line 4.
    static func single(latitud: String?, longitud: String?) -> String {
        let lat = latitud.map { "    <latitud>\($0)</latitud>\n" } ?? ""
        let lon = longitud.map { "    <longitud>\($0)</longitud>\n" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- Written for geoq's tests, following SPEC §2's description of the services XML. -->
            <Anuncios>
              <Restaurantes id="7">
                <localeName>Bar de prueba</localeName>

            \(lat)\(lon)    <tipo>Bar</tipo>
              </Restaurantes>
            </Anuncios>
            """
    }
}
