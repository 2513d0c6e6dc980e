import GeoqCore
import GeoqIncidents
import Testing

/// SPEC §3's rules for descriptions, on the hand-written Zaragoza feeds and on small cases.
@Suite struct IncidentDescriptionTests {
    @Test func waterCutFeed() throws {
        let incidents = try ZaragozaFixtures.incidents(.waterCut)
        try #require(incidents.count == 1)
        #expect(incidents[0].id == "agua-1001")
        #expect(incidents[0].title == "Calle de Delicias")
        #expect(
            incidents[0].description == """
                Corte de suministro por reparación de tubería.
                Tramo comprendido:
                entre Calle Escoriaza y Fabié y Avenida de Madrid
                Finalización:
                24/11/2026
                """)
    }

    @Test func trafficCutFeed() throws {
        let incidents = try ZaragozaFixtures.incidents(.trafficCut)
        #expect(
            incidents.map(\.id) == [
                "trafico-2001", "trafico-2002", "https://www.zaragoza.es/sede/servicio/via-publica/incidencia/2003",
            ])
        #expect(
            incidents[0].description == """
                Corte total del carril bus por obras.
                Desvío:
                por Calle Cádiz
                Observaciones:
                Se recomienda el transporte público.
                """)
        #expect(incidents[1].description == "Sin descripción")
        #expect(
            incidents[2].description
                == "Peatonal – carga y descarga de 8 a 10 h.\nTramo comprendido:\nPlaza del Pilar y Calle Coso")
        #expect(incidents[2].geometry == .point(Point(x: -0.8790, y: 41.6540)))  // no guid: the link is the id
        #expect(incidents[0].published?.timeIntervalSince1970 == 1_795_282_200)  // 2026-11-21T17:30Z
    }

    @Test func doubleEscapedEntitiesAndTheEmptyFeed() throws {
        let tram = try ZaragozaFixtures.incidents(.tramDisruption)
        #expect(
            tram[0].description
                == "Servicio de tranvía interrumpido entre Pza. España y César Augusto.\nDesvío:\nautobuses lanzadera")
        #expect(try ZaragozaFixtures.incidents(.publicTransport).isEmpty)
    }

    @Test(
        arguments: [
            ("", "Sin descripción"), ("   <p> </p> &nbsp; ", "Sin descripción"), (nil, "Sin descripción"),
            ("a &amp; b &lt;c&gt; &#233; &#xE9; &unknown; &", "a & b <c> é é &unknown; &"),
            ("<script>alert(1)</script>Texto<!-- nota -->", "Texto"),
            ("Observaciones:ninguna", "Observaciones:\nninguna"),
            ("DESVÍO por la derecha", "Desvío:\npor la derecha"),
            ("Los desvíos habituales", "Los desvíos habituales"),
            ("x<br>y<BR/>z", "x\ny\nz"),
        ] as [(String?, String)])
    func cases(html: String?, expected: String) {
        #expect(IncidentDescription.clean(html) == expected)
    }
}
