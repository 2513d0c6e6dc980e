import Foundation
import GeoqAR
import GeoqCore
import GeoqJSON
import GeoqPROJ
import GeoqTestSupport
import Testing

/// The overlay written by hand (`JSONText`) is the text JSONEncoder writes for it (sorted keys,
/// slashes unescaped), labels behind the camera with null x and y included.
@Suite struct ARAnswerJSONTests {
    static func encoderText(_ answer: ARAnswer) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(answer), as: UTF8.self)
    }

    @Test func overlaysAsJSONEncoderWritesThem() throws {
        var rng = SeededRandom(seed: 2024)
        let cityHall = Point(latitude: 39.4699, longitude: -0.3763)
        // Targets all around, near and far, some above and below, with odd names.
        let names = ["Falla \"Na Jordana\"", "Plaça/Plaza", "ñ é 🅰", "tab\there", "\u{1}", ""]
        let targets = (0..<300).map { i in
            ARTarget(
                id: "t\(i)", name: names[i % names.count],
                position: Geodesic.wgs84.direct(
                    from: cityHall, azimuth: rng.uniform(0...360), distance: rng.uniform(1...3000)),
                altitude: i % 3 == 0 ? nil : rng.uniform(-20...120))
        }
        var answers: [ARAnswer] = []
        for heading in stride(from: 0.0, to: 360, by: 45) {
            for pitch in [-30.0, 0, 12.5] {
                let camera = ARCamera(
                    position: cityHall, altitude: 15, heading: heading, pitch: pitch, roll: pitch / 3,
                    horizontalFieldOfView: 66,
                    verticalFieldOfView: ARCamera.verticalFieldOfView(horizontal: 66, width: 1080, height: 1920),
                    width: 1080, height: 1920)
                let labels = AROverlay.compute(camera: camera, targets: targets, geodesic: Geodesic.wgs84)
                answers.append(ARAnswer(camera: camera, labels: labels))
                var visible = ARAnswer(camera: camera, labels: labels, visibleOnly: true)
                visible.line = Int(heading)
                visible.camera.readHeading = heading + 0.25
                answers.append(visible)
            }
        }
        #expect(answers.contains { $0.labels.contains { $0.x == nil } }, "labels behind the camera")
        #expect(answers.contains { $0.labels.contains { $0.stackLevel > 0 } }, "stacked labels")
        for answer in answers {
            #expect(String(decoding: JSONText.of(answer), as: UTF8.self) == (try Self.encoderText(answer)))
        }
    }
}
