import Foundation
import GeoqAPI
import GeoqSchedule
import GeoqTestSupport
import NIOCore
import Testing

@testable import GeoqServer

/// `GET /v1/park` as the service answers it (written from the parts the snapshot keeps written)
/// is byte for byte what it answered before: the answer as a value encoded by JSONEncoder, or the
/// same problem. Over the catalog's real layers, zone lines and tariffs, requests as clients send
/// them, in every language a client may ask for, and across a reload with other tariffs.
@Suite struct ParkAnswerBytesTests {
    /// The service's answer to `target` on `state`: the endpoint the event loop and the router
    /// both answer with.
    static func served(_ query: String, acceptLanguage: String?, state: ServiceState) throws -> Answer {
        let endpoints = GetEndpoints(state: state, metrics: RequestMetrics(), limits: ServiceLimits())
        let request = EndpointRequest(path: "/v1/park", query: query, accept: nil, acceptLanguage: acceptLanguage)
        return endpoints.answer(request, by: try #require(endpoints.endpoint(at: "/v1/park")))
    }

    /// The answer as before: the value, through JSONEncoder; a refusal as its problem.
    static func encoded(_ query: String, acceptLanguage: String?, data: ServiceData) -> Answer {
        do throws(Problem) {
            let answer = try ParkEndpoint.answer(
                QueryParameters(query: query), data: data, acceptLanguage: acceptLanguage)
            guard let body = Responses.encode(answer) else { return Responses.problem(.internalError("encoding")) }
            return Responses.body(body, status: .ok, contentType: "application/json")
        } catch {
            return Responses.problem(error, acceptLanguage: acceptLanguage)
        }
    }

    static func same(_ a: Answer, _ b: Answer) -> Bool {
        a.status == b.status && a.contentType == b.contentType && a.body == b.body
    }

    static let acceptLanguages: [String?] = [
        nil, "es", "eu-ES,eu;q=0.9,es;q=0.8", "en-GB,en;q=0.9", "fr-FR", "es;q=0.5, en", "*", "EU",
    ]

    /// Seeded requests like realistic-points.py's (spots over Pamplona, a zone or none, minutes or
    /// euros with a point or a comma), with reminders, a time asked or none, `lang` or
    /// `Accept-Language`, and some mistakes.
    static func requests(count: Int, using generator: inout SeededRandom) -> [(query: String, language: String?)] {
        (0..<count).map { _ in
            var parameters = [
                "lat=\(String(format: "%.6f", generator.uniform(42.79...42.83)))",
                "lon=\(String(format: "%.6f", generator.uniform(-1.68 ... -1.62)))",
            ]
            if let zone = [nil, "blue", "orange", "red", "green", "azul", "violet"].randomElement(using: &generator)! {
                parameters.append("zone=\(zone)")
            }
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: parameters.append("minutes=\(Int.random(in: 1...600, using: &generator))")
            case 1:
                parameters.append(
                    "euros=\(Int.random(in: 0...4, using: &generator)).\(Int.random(in: 10...95, using: &generator))")
            case 2: parameters.append("euros=1,25")
            default: break
            }
            if Int.random(in: 0..<4, using: &generator) == 0 { parameters.append("reminder=5,10") }
            if let at = [
                nil, nil, "2026-11-27T08:29", "2026-11-27T08:30", "2026-11-23T13:59", "2026-11-23T14:00",
                "2026-12-25T10:00", "2026-07-07T12:00", "2026-03-29T03:00", "2026-11-23T25:00",
            ].randomElement(using: &generator)! {
                parameters.append("at=\(at)")
            }
            if let lang = [nil, nil, nil, "es", "eu", "en"].randomElement(using: &generator)! {
                parameters.append("lang=\(lang)")
            }
            parameters.shuffle(using: &generator)
            return (parameters.joined(separator: "&"), acceptLanguages.randomElement(using: &generator)!)
        }
    }

    /// 2,000 requests, each compared with the answer as before. A request without `at` asks
    /// about now: it is compared with the answers computed right before and right after it,
    /// which agree unless a minute ended between them (then it is asked again).
    @Test func servedAnswersAreTheEncodersBytes() throws {
        let state = GoldenResponseTests.state
        let data = try #require(state.data)
        var generator = SeededRandom(seed: 20_261_129)
        var answered = 0, refused = 0, now = 0
        for (query, language) in Self.requests(count: 2_000, using: &generator) {
            var attempts = 0
            while true {
                let before = Self.encoded(query, acceptLanguage: language, data: data)
                let served = try Self.served(query, acceptLanguage: language, state: state)
                let after = Self.encoded(query, acceptLanguage: language, data: data)
                if !Self.same(before, after) {
                    attempts += 1
                    #expect(attempts < 3, "\(query): the answer keeps changing")
                    if attempts < 3 { continue }
                }
                guard Self.same(served, before) else {
                    Issue.record(
                        "\(query) (Accept-Language \(language ?? "-")): \(String(buffer: served.body)) against \(String(buffer: before.body))"
                    )
                    return
                }
                if served.status == .ok { answered += 1 } else { refused += 1 }
                if !query.split(separator: "&").contains(where: { $0.hasPrefix("at=") }) { now += 1 }
                break
            }
        }
        #expect(answered > 800 && refused > 800 && now > 300, "\(answered) answered, \(refused) refused, \(now) now")
    }

    /// A reload with other tariffs (the blue zone's sentence and max stay changed): the next
    /// answers are the new tariffs', written anew, and a reload back answers as before.
    @Test func aReloadAnswersWithTheNewTariffs() throws {
        let old = try #require(GoldenResponseTests.state.data)
        var tariffs = try #require(old.tariffs["pamplona"])
        let blue = try #require(tariffs.zones.firstIndex { $0.id == "blue" })
        tariffs.zones[blue].whoMayPark = LocalizedText(
            es: "Solo con tique.", eu: "Txartelarekin bakarrik.", en: "With a ticket only.")
        tariffs.zones[blue].maxStayMinutes = 90
        let new = ServiceData(
            sectorLookups: old.sectorLookups, layers: old.layers, tariffs: ["pamplona": tariffs],
            zoneLocators: old.zoneLocators, storeFile: old.storeFile, defaultSectorLayer: old.defaultSectorLayer,
            geodesic: old.geodesic, loadedAt: Date())
        let state = ServiceState(old)
        let query = "lat=42.8169&lon=-1.6440&zone=blue&minutes=45&at=2026-11-23T10:50"
        for language in ["es", "en"] {
            let before = try Self.served(query, acceptLanguage: language, state: state)
            #expect(Self.same(before, Self.encoded(query, acceptLanguage: language, data: old)))
            state.replace(with: new)
            let reloaded = try Self.served(query, acceptLanguage: language, state: state)
            #expect(Self.same(reloaded, Self.encoded(query, acceptLanguage: language, data: new)))
            #expect(!Self.same(reloaded, before))
            #expect(String(buffer: reloaded.body).contains(#""maxStay":{"amount":"#))
            #expect(String(buffer: reloaded.body).contains(#""minutes":90}"#))
            state.replace(with: old)
            #expect(Self.same(try Self.served(query, acceptLanguage: language, state: state), before))
        }
    }

    /// On the wire from the event loop, where the head is written in the room left before the
    /// body: a GET's head and body, a HEAD's head alone with the GET's Content-Length, and the
    /// next answer on the connection right after.
    @Test func theWireCarriesTheHeadAndTheBody() throws {
        let state = GoldenResponseTests.state
        let data = try #require(state.data)
        let pipeline = try InlineAnswerTests.Pipeline(state: state)
        let target = "/v1/park?lat=42.8169&lon=-1.6440&zone=blue&minutes=45&at=2026-11-23T13:50"
        let query = String(target.split(separator: "?")[1])
        for language in ["eu", "es;q=0.5, en"] {
            try pipeline.send("GET", target, headers: ["Accept-Language: \(language)"])
            let get = try #require(try pipeline.answers().first)
            let expected = Self.encoded(query, acceptLanguage: language, data: data)
            #expect(get.statusLine == "HTTP/1.1 200 OK" && get.header("Content-Type") == "application/json")
            #expect(Array(get.body.utf8) == Array(expected.body.readableBytesView))
            #expect(get.header("Content-Length") == String(expected.body.readableBytes))
        }
        try pipeline.send("HEAD", target)
        try pipeline.send("GET", "/healthz")
        var wire = ""
        while let bytes = try pipeline.channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = bytes { wire += String(buffer: buffer) }
        }
        let parts = wire.components(separatedBy: "\r\n\r\n")
        let expected = Self.encoded(query, acceptLanguage: nil, data: data)
        #expect(parts.count == 3 && parts[0].hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(parts[0].contains("Content-Length: \(expected.body.readableBytes)\r\n"))
        #expect(parts[1].hasPrefix("HTTP/1.1 200 OK\r\n") && parts[2] == #"{"status":"ok"}"#)
    }
}
