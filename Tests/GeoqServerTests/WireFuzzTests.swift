import Foundation
import GeoqTestSupport
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import GeoqServer

/// Random bytes on the wire, into SwiftNIO's HTTP/1 codec and the inline handler as the service
/// has them (`InlineAnswerTests.Pipeline`): streams of pipelined requests built from odd methods,
/// targets, versions and headers, then cut, spliced or with bytes flipped, and fed in random
/// pieces, with the requests passed on answered as the router would. Whatever comes in, the
/// handler never crashes, and what it writes are answers with a status below 500. The router's
/// stand-in answers carry a marker header, so that only the handler's own answers are counted.
@Suite struct WireFuzzTests {
    // Most requests are well formed (so that streams get past the parser and into the handler);
    // one in ten takes one odd piece.
    static let methods = ["GET", "GET", "GET", "HEAD", "POST", "DELETE", "OPTIONS"]
    static let oddMethods = ["G\u{0}T", "get", "", "GET GET", "PRI"]
    static let targets = [
        "/v1/sector?lat=42.81&lon=-1.64", "/v1/sector", "/healthz", "/readyz", "/v1/layers", "/metrics",
        "/openapi.json", "/v1/nearest?lat=42.81&lon=-1.64&layer=pamplona-sectors", "/v1/tariff?zone=blue&minutes=30",
        "/v1/sector:batch", "*", "http://localhost/v1/sector?lat=1&lon=2", "/v1/sector?", "/v1/sector?#", "//",
        "/v1/sector?lat=%zz&lon=%", "/v1/sector/?lat=42.81&lon=-1.64", "/%00", "/v1/sector?lat=42.81&lon=-1.64#x",
        "/v1/sector?lat=42.81&lon=-1.64&lat=%C3%BF", "/v1/sector?" + String(repeating: "lat=1&", count: 2000),
    ]
    static let versions = ["HTTP/1.1", "HTTP/1.1", "HTTP/1.0"]
    static let oddVersions = ["HTTP/2.0", "HTTP/1.2", "HTTP/x", "", "HTTP/1.1 extra"]
    static let headers = [
        "Connection: close", "Connection: keep-alive", "Connection: Upgrade\r\nUpgrade: websocket",
        "Accept: application/geo+json", "Accept: */*;q=0", "Accept-Language: eu", "Accept-Language: \u{FF}\u{FE}",
        "Expect: 100-continue", "Transfer-Encoding: chunked", "Content-Length: 3", "Accept: a\r\nAccept: b",
    ]
    static let oddHeaders = [
        "Content-Length: -1", "Content-Length: 99999999999999999999", "Content-Length: 3\r\nContent-Length: 4",
        "No-Colon-Here", " folded: value", "X: \u{7F}", "Host:", "Transfer-Encoding: gzip, chunked",
    ]
    static func pick<T>(_ items: [T], _ rng: inout SeededRandom) -> T {
        items[Int(rng.uniform(0...Double(items.count - 1)))]
    }

    /// One request, most often well formed.
    static func request(_ rng: inout SeededRandom) -> [UInt8] {
        let odd = rng.uniform(0...1) < 0.1 ? Int(rng.uniform(0...2)) : -1
        let method = pick(odd == 0 ? oddMethods : methods, &rng)
        let version = pick(odd == 1 ? oddVersions : versions, &rng)
        var lines = ["\(method) \(pick(targets, &rng)) \(version)", "Host: localhost"]
        for _ in 0..<Int(rng.uniform(0...3)) { lines.append(pick(headers, &rng)) }
        if odd == 2 { lines.append(pick(oddHeaders, &rng)) }
        var text = lines.joined(separator: "\r\n") + "\r\n\r\n"
        if lines.contains("Transfer-Encoding: chunked") {
            text += rng.uniform(0...1) < 0.5 ? "3\r\nabc\r\n0\r\n\r\n" : "zz\r\nabc\r\n"
        } else if lines.contains("Content-Length: 3") {
            text += "abc"
        }
        return Array(text.utf8)
    }

    /// A stream of pipelined requests, damaged now and then.
    static func stream(_ rng: inout SeededRandom) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<Int(rng.uniform(1...6)) { bytes += request(&rng) }
        switch rng.uniform(0...1) {
        case ..<0.08:
            for _ in 0..<Int(rng.uniform(1...8)) {
                bytes[Int(rng.uniform(0...Double(bytes.count - 1)))] = UInt8(rng.uniform(0...255))
            }
        case ..<0.14:
            bytes = Array(bytes.prefix(Int(rng.uniform(0...Double(bytes.count)))))
        case ..<0.2:
            let at = Int(rng.uniform(0...Double(bytes.count)))
            bytes.insert(contentsOf: (0..<Int(rng.uniform(1...40))).map { _ in UInt8(rng.uniform(0...255)) }, at: at)
        case ..<0.23:
            bytes = (0..<Int(rng.uniform(1...300))).map { _ in UInt8(rng.uniform(0...255)) }
        default:
            break
        }
        return bytes
    }

    /// Marks the answers written by ``answerAsTheRouter(_:)``, which are not the service's.
    static let routerMarker = "X-Router-Stand-In: 1"

    /// Answers every request that has reached the end of the pipeline (the router's side) with
    /// an empty 204, written back through the handler, as Hummingbird's answers are.
    static func answerAsTheRouter(_ channel: EmbeddedChannel) throws {
        while let part = try channel.readInbound(as: HTTPServerRequestPart.self) {
            guard case .end = part, channel.isActive else { continue }
            let head = HTTPResponseHead(
                version: .http1_1, status: .noContent, headers: HTTPHeaders([("X-Router-Stand-In", "1")]))
            try channel.writeOutbound(HTTPServerResponsePart.head(head))
            try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        }
    }

    @Test func randomStreamsNeverCrashTheConnection() throws {
        var rng = SeededRandom(seed: 90_210)
        var answeredByTheService = 0
        var answeredByTheStandIn = 0
        var refusedByTheParser = 0
        for round in 0..<20_000 {
            let pipeline = try InlineAnswerTests.Pipeline()
            let bytes = Self.stream(&rng)
            // Fed in random pieces, as a socket may deliver them.
            var offset = 0
            var parserRefused = false
            while offset < bytes.count, pipeline.channel.isActive {
                let length = min(bytes.count - offset, Int(rng.uniform(1...200)))
                do {
                    try pipeline.channel.writeInbound(ByteBuffer(bytes: bytes[offset..<(offset + length)]))
                } catch {
                    // The service's connection handler closes the connection on a parser error.
                    parserRefused = true
                    break
                }
                offset += length
                try Self.answerAsTheRouter(pipeline.channel)
            }
            if parserRefused { refusedByTheParser += 1 }
            // What went out, as text (a HEAD answer has a Content-Length and no body, so the
            // answers are told apart by their status lines).
            var wire = ""
            while let data = try pipeline.channel.readOutbound(as: IOData.self) {
                if case .byteBuffer(let buffer) = data { wire += String(buffer: buffer) }
            }
            #expect(wire.isEmpty || wire.hasPrefix("HTTP/1.1 "), "round \(round): \(wire.prefix(80))")
            for answer in wire.components(separatedBy: "HTTP/1.1 ").dropFirst() {
                if answer.contains("\r\n\(Self.routerMarker)\r\n") {
                    answeredByTheStandIn += 1
                    continue
                }
                answeredByTheService += 1
                let status = Int(answer.prefix(3)) ?? 0
                #expect((200..<500).contains(status), "round \(round): \(wire)")
            }
            _ = try? pipeline.channel.finish()
        }
        // The fuzzing reaches both sides: answers the service wrote, and streams the parser refuses.
        print(
            "wire fuzz: \(answeredByTheService) answers written by the service, \(answeredByTheStandIn) by the router stand-in, \(refusedByTheParser) streams refused by the parser"
        )
        #expect(answeredByTheService > 5000, "answers written by the service: \(answeredByTheService)")
        #expect(refusedByTheParser > 5000, "refused: \(refusedByTheParser)")
    }
}
