import Foundation
import GeoqAPI
import GeoqServer
import Hummingbird
import HummingbirdTesting
import Testing

/// Problems in the asker's language: Accept-Language picks es, eu or en for every endpoint's
/// problems (English without one); the tariff's `lang` comes first.
@Suite struct ProblemLanguageTests {
    static let state: ServiceState = { ServiceState(ServiceData.load(from: TestLibrary.catalogOnly())) }()

    func problem(_ uri: String, language: String?, method: HTTPRequest.Method = .get) async throws -> Problem {
        let app = Application(router: Routes.router(state: Self.state))
        let box = ProblemBox()
        try await app.test(.router) { client in
            var headers: HTTPFields = [:]
            if let language { headers[.acceptLanguage] = language }
            try await client.execute(uri: uri, method: method, headers: headers) { response in
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
        let wrongMethod = try await problem("/v1/sector", language: "es", method: .delete)
        #expect(
            wrongMethod.title == "Método no permitido" && wrongMethod.detail == "/v1/sector admite GET, HEAD, no DELETE"
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
}
