import Foundation
import GeoqAPI
import GeoqLayers
import GeoqServer
import GeoqSnapshot
import Hummingbird
import HummingbirdTesting
import Testing

/// `Accept: application/geo+json` where the answer is geometry: the same hits as the JSON
/// answer, as GeoJSON features longitude first.
@Suite struct GeoJSONResponsesTests {
    static let state: ServiceState = { ServiceState(ServiceData.load(from: TestLibrary.catalogOnly())) }()

    func both(_ uri: String) async throws -> (json: [String: Any], geoJSON: [String: Any]) {
        let app = Application(router: Routes.router(state: Self.state))
        let box = Box()
        try await app.test(.router) { client in
            for accept in ["application/json", "application/geo+json"] {
                try await client.execute(uri: uri, method: .get, headers: [.accept: accept]) { response in
                    #expect(response.status == .ok && response.headers[.contentType] == accept, "\(uri)")
                    await box.put(accept, Data(buffer: response.body))
                }
            }
        }
        func object(_ key: String) async -> [String: Any] {
            guard let data = await box.values[key] else { return [:] }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        }
        return (await object("application/json"), await object("application/geo+json"))
    }

    actor Box {
        var values: [String: Data] = [:]
        func put(_ key: String, _ value: Data) { values[key] = value }
    }

    static func features(_ collection: [String: Any]) throws -> [[String: Any]] {
        #expect(collection["type"] as? String == "FeatureCollection")
        return try #require(collection["features"] as? [[String: Any]])
    }

    @Test func nearestHitsAsPointsLongitudeFirst() async throws {
        let (json, geoJSON) = try await both("/v1/nearest?lat=39.4699&lon=-0.3763&layer=fallas&n=5")
        let hits = try #require(json["hits"] as? [[String: Any]])
        let features = try Self.features(geoJSON)
        #expect(features.count == 5 && hits.count == 5)
        for (hit, feature) in zip(hits, features) {
            #expect(feature["id"] as? String == hit["id"] as? String)
            let position = try #require(hit["position"] as? [String: Double])
            let geometry = try #require(feature["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "Point")
            #expect(geometry["coordinates"] as? [Double] == [position["longitude"]!, position["latitude"]!])
            let properties = try #require(feature["properties"] as? [String: Any])
            #expect(properties["distanceMetres"] as? Double == hit["distanceMetres"] as? Double)
        }
    }

    @Test func servicesNameTheirTypeAndParkIsAFeature() async throws {
        let (json, geoJSON) = try await both("/v1/services?lat=39.4699&lon=-0.3763&n=2")
        let groups = try #require(json["groups"] as? [[String: Any]])
        let features = try Self.features(geoJSON)
        #expect(features.count == groups.reduce(0) { $0 + (($1["hits"] as? [Any])?.count ?? 0) })
        let types = features.compactMap { ($0["properties"] as? [String: Any])?["serviceType"] as? String }
        #expect(Set(types) == Set(groups.compactMap { $0["type"] as? String }))

        let (_, park) = try await both("/v1/park?lat=42.8125&lon=-1.6458&zone=blue&at=2026-11-23T13:50")
        #expect(park["type"] as? String == "Feature")
        #expect((park["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [-1.6458, 42.8125])
        #expect((park["properties"] as? [String: Any])?["zone"] != nil)
    }
}
