import Foundation
import Testing

/// The command and the service give the same answer to the same question: their golden files
/// (each checked byte for byte against its face by GoldenAnswerTests and GoldenResponseTests)
/// hold the same values. Both faces solve every distance and bearing with the one geodesic, so a
/// difference here is a face that answers from something else.
@Suite struct CommandServiceAgreementTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// The body of the service's golden file (its first line is the status and media type).
    static func service(_ name: String) throws -> Any {
        let text = try String(
            contentsOf: tests.appendingPathComponent("GeoqServerTests/Golden/\(name)"), encoding: .utf8)
        let body = try #require(text.split(separator: "\n", maxSplits: 1).last)
        return try JSONSerialization.jsonObject(with: Data(body.utf8))
    }

    static func command(_ name: String) throws -> Any {
        try JSONSerialization.jsonObject(
            with: Data(contentsOf: tests.appendingPathComponent("GeoqCLITests/Golden/\(name)")))
    }

    /// The value written with sorted keys, so that two answers compare by what they hold.
    static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    /// `ar 39.4699 -0.3763 --heading 20 --pitch 5 --max-distance 800` and the same `/v1/ar`.
    @Test func arOverlay() throws {
        #expect(try Self.canonical(Self.command("ar.json")) == Self.canonical(Self.service("ar.json")))
    }

    /// `which-sector 42.81 -1.64` and `/v1/sector` at the same point.
    @Test func whichSector() throws {
        #expect(try Self.canonical(Self.command("which-sector.json")) == Self.canonical(Self.service("sector.json")))
    }

    /// `park 42.8169 -1.6440 --zone blue --minutes 45` and `/v1/park` at the same instant.
    @Test func park() throws {
        #expect(try Self.canonical(Self.command("park.json")) == Self.canonical(Self.service("park.json")))
    }

    /// The command's ten nearest fallas begin with the service's five.
    @Test func nearest() throws {
        let command = try #require(try Self.command("nearest-fallas.json") as? [String: Any])
        let service = try #require(try Self.service("nearest.json") as? [String: Any])
        let commandHits = try #require(command["hits"] as? [Any])
        let serviceHits = try #require(service["hits"] as? [Any])
        #expect(serviceHits.count == 5)
        #expect(try Self.canonical(Array(commandHits.prefix(serviceHits.count))) == Self.canonical(serviceHits))
        #expect(try Self.canonical(command["query"]!) == Self.canonical(service["query"]!))
    }

    /// The command's three nearest services of each kind begin with the service's two.
    @Test func services() throws {
        let command = try #require((try Self.command("services.json") as? [String: Any])?["groups"] as? [[String: Any]])
        let service = try #require((try Self.service("services.json") as? [String: Any])?["groups"] as? [[String: Any]])
        #expect(command.count == service.count && !service.isEmpty)
        for (c, s) in zip(command, service) {
            let serviceHits = try #require(s["hits"] as? [Any])
            let commandHits = try #require(c["hits"] as? [Any])
            #expect(!serviceHits.isEmpty)
            #expect(try Self.canonical(Array(commandHits.prefix(serviceHits.count))) == Self.canonical(serviceHits))
            #expect(c["type"] as? String == s["type"] as? String && c["layer"] as? String == s["layer"] as? String)
        }
    }
}
