import Foundation
import GeoqAPI
import GeoqFormats
import GeoqServer
import GeoqSnapshot
import Hummingbird
import HummingbirdTesting
import Testing

/// Problems in the asker's language: Accept-Language picks es, eu or en for every endpoint's
/// problems (English without one); the tariff's `lang` comes first.
@Suite struct ProblemLanguageTests {
    static let state: ServiceState = { ServiceState(ServiceData.load(from: TestLibrary.catalogOnly())) }()

    func problem(
        _ uri: String, language: String?, method: HTTPRequest.Method = .get, body: (String, contentType: String)? = nil
    ) async throws -> Problem {
        let app = Application(router: Routes.router(state: Self.state))
        let box = ProblemBox()
        try await app.test(.router) { client in
            var headers: HTTPFields = [:]
            if let language { headers[.acceptLanguage] = language }
            if let body { headers[.contentType] = body.contentType }
            try await client.execute(
                uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0.0) }
            ) { response in
                #expect(response.headers[.contentType] == Problem.mediaType)
                await box.set(try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body)))
            }
        }
        return try #require(await box.value)
    }

    actor ProblemBox {
        var value: Problem?
        func set(_ p: Problem) { value = p }
    }

    @Test func parameterProblemsFollowAcceptLanguage() async throws {
        let uri = "/v1/sector?lat=abc&lon=-1.64"
        let english = try await problem(uri, language: nil)
        #expect(english.title == "A parameter is not valid")
        #expect(english.detail == "lat must be a decimal number (the latitude in degrees), got \"abc\"")
        let spanish = try await problem(uri, language: "es-ES,es;q=0.9,en;q=0.5")
        #expect(spanish.title == "Un parámetro no es válido")
        #expect(spanish.detail == "lat debe ser un número decimal (latitud en grados); se recibió \"abc\"")
        let basque = try await problem(uri, language: "eu")
        #expect(basque.title == "Parametro bat ez da baliozkoa")
        #expect(basque.detail == "lat zenbaki hamartar bat izan behar da (latitudea gradutan); \"abc\" jaso da")
        // Type, status and parameter do not change with the language.
        #expect(Set([english.type, spanish.type, basque.type]) == ["/problems/invalid-parameter"])
        #expect(basque.parameter == "lat" && basque.status == 400)
        // A language geoq does not speak falls back to English.
        #expect(try await problem(uri, language: "fr-FR").title == "A parameter is not valid")
    }

    @Test func everyEndpointsProblemsAreTranslated() async throws {
        for uri in [
            "/v1/nearest?lat=39.47&lon=-0.37", "/v1/services?lat=39.47&lon=-0.37&type=spaceport",
            "/v1/ar?lat=39.47&lon=-0.37&heading=10&hfov=0", "/v1/incidents?within=5",
            "/v1/sector?lat=42.81&lon=-1.64&layer=nowhere", "/nowhere",
        ] {
            let english = try await problem(uri, language: nil)
            let spanish = try await problem(uri, language: "es")
            let basque = try await problem(uri, language: "eu")
            #expect(spanish.title != english.title && basque.title != english.title, "\(uri)")
            #expect(spanish.detail != english.detail && basque.detail != english.detail, "\(uri)")
            #expect(spanish.type == english.type && basque.parameter == english.parameter, "\(uri)")
        }
        let wrongMethod = try await problem("/v1/sector", language: "es", method: .post)
        #expect(
            wrongMethod.title == "Método no permitido" && wrongMethod.detail == "/v1/sector admite GET, HEAD, no POST"
        )
    }

    /// /v1/tariff's `lang` wins over Accept-Language, for its own refusals and for a bad
    /// parameter alike.
    @Test func theTariffsLangComesFirst() async throws {
        let bad = try await problem("/v1/tariff?zone=blue&minutes=0&lang=eu", language: "es")
        #expect(bad.title == "Parametro bat tartetik kanpo dago" && bad.parameter == "minutes")
        let refused = try await problem(
            "/v1/tariff?zone=blue&minutes=121&start=2026-11-23T10:00&lang=en", language: "eu")
        #expect(refused.title == "The tariff refuses this ticket" && refused.code == "beyond-max-stay")
        let basque = try await problem("/v1/tariff?zone=blue&minutes=121&start=2026-11-23T10:00", language: "eu")
        #expect(basque.title == "Tarifak ez du txartel hau onartzen")
        #expect(basque.detail != refused.detail)
    }

    /// The batch endpoint's own words for a point it cannot read follow Accept-Language too;
    /// the English is the command line's message for the same line (BatchReader's).
    @Test func batchBodyProblemsFollowAcceptLanguage() async throws {
        let cases: [(body: String, type: String, line: Int?, feature: Int?, es: String, eu: String)] = [
            (
                "{\"lat\": 42.8, \"lon\": -1.6}\n{\"lat\": \"x\", \"lon\": 1}\n", "application/x-ndjson", 2, nil,
                "línea 2: \"lat\" y \"lon\" deben ser números",
                "2. lerroa: \"lat\" eta \"lon\" zenbakiak izan behar dira"
            ),
            ("{\"lon\": 1}\n", "application/x-ndjson", 1, nil, "línea 1: falta \"lat\"", "1. lerroa: \"lat\" falta da"),
            (
                "{lat: 1}\n", "application/x-ndjson", 1, nil, "línea 1: no es un objeto JSON",
                "1. lerroa: ez da JSON objektu bat"
            ),
            (
                "42.81,-1.64\n42.81;-1.64\n", "text/csv", 2, nil,
                "línea 2: se esperaba 'lat,lon' o 'lat,lon,id'; la línea tiene 1 campos",
                "2. lerroa: 'lat,lon' edo 'lat,lon,id' espero zen; lerroak 1 eremu ditu"
            ),
            (
                "120.5,42.81\n", "text/csv", 1, nil,
                "línea 1: la latitud 120.5 está fuera de [-90, 90]; ¿puso primero la longitud? geoq espera LAT LON",
                "1. lerroa: latitudea (120.5) [-90, 90] tartetik kanpo dago; longitudea jarri duzu lehenik? geoq-ek LAT LON hartzen ditu"
            ),
            (
                "abc,-1.64\n", "text/csv", 1, nil, "línea 1: la latitud 'abc' no es un número",
                "1. lerroa: latitudea ('abc') ez da zenbaki bat"
            ),
            ("# nothing\n", "text/csv", nil, nil, "el cuerpo no contiene ningún punto", "gorputzak ez du punturik"),
            (
                #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[-1.64,95]}}]}"#,
                "application/geo+json", nil, 1,
                "entidad 1: la latitud 95.0 está fuera de [-90, 90] (GeoJSON pone primero la longitud)",
                "1. elementua: latitudea (95.0) [-90, 90] tartetik kanpo dago (GeoJSON-ek longitudea jartzen du lehenik)"
            ),
        ]
        for c in cases {
            let body = (c.body, contentType: c.type)
            let english = try await problem("/v1/sector:batch", language: nil, method: .post, body: body)
            let spanish = try await problem("/v1/sector:batch", language: "es", method: .post, body: body)
            let basque = try await problem("/v1/sector:batch", language: "eu-ES", method: .post, body: body)
            #expect(english.type == "/problems/malformed-body" && english.status == 400, "\(c.body)")
            #expect(spanish.line == c.line && basque.feature == c.feature, "\(c.body)")
            #expect(spanish.detail == c.es, "\(c.body)")
            #expect(basque.detail == c.eu, "\(c.body)")
            #expect(Set([english.detail, spanish.detail, basque.detail]).count == 3, "\(c.body)")
            #expect(basque.title == "Ezin da eskaeraren gorputza irakurri")
            // The English detail is the command line's message for the line.
            if c.type != "application/geo+json", let line = c.line {
                var reader = BatchReader()
                let lines = c.body.split(separator: "\n", omittingEmptySubsequences: false)
                let items = lines.enumerated().compactMap { reader.item(line: String($1), number: $0 + 1) }
                guard case .failure(let error)? = items.first(where: { $0.line == line })?.result else {
                    Issue.record("the reader took line \(line) of \(c.body)")
                    continue
                }
                #expect(english.detail == error.description)
            }
        }
        // A JSON syntax error is the parser's, in English, under a translated title.
        let syntax = try await problem(
            "/v1/sector:batch", language: "es", method: .post,
            body: (#"{"type":"FeatureCollection","features":["#, contentType: "application/geo+json"))
        #expect(syntax.title == "No se puede leer el cuerpo de la petición" && syntax.detail.contains("invalid JSON"))
    }
}
