import Foundation
import GeoqAPI
import GeoqAccess
import GeoqSchedule
import GeoqStore
import Hummingbird

/// `POST /v1/devices/{id}/token` (scope `track`, a key: a device token cannot make another):
/// a short-lived token that posts the fixes of that one device of the caller's tenant, so that
/// a phone never holds its tenant's key. `DELETE /v1/devices/{id}` (scope `admin`): the
/// device's track, events and deliveries removed from the store in one transaction.
enum DeviceRoutes {
    static func register(on router: Router<ServiceRequestContext>, tracking: Tracking) {
        router.post("/v1/devices/:id/token") { request, context -> Response in
            let principal = try context.principal(holding: .track, keyOnly: true)
            let device = try deviceID(context, limits: tracking.limits)
            let body = try await request.body.collect(upTo: 4_096)
            let lifetime = try lifetime(asked: Data(buffer: body))
            guard let secret = tracking.keys.signingSecret else { throw Problem.stillLoading }
            let expires = Date(timeIntervalSince1970: (tracking.now() + lifetime).timeIntervalSince1970.rounded(.down))
            let token = DeviceToken.issue(
                tenant: principal.tenant, device: device, keyID: principal.keyID, expires: expires, secret: secret)
            let answer: [String: Any] = [
                "token": token, "device": device, "expires": ISO8601DateFormatter().string(from: expires),
            ]
            return try HookRoutes.json(answer, status: .created)
        }
        router.delete("/v1/devices/:id") { _, context -> Response in
            let principal = try context.principal(holding: .admin, keyOnly: true)
            let device = try deviceID(context, limits: tracking.limits)
            let erased = try await tracking.fixes.erase(tenant: principal.tenant, device: device)
            return Responses.json(erased).response
        }
    }

    /// The path's device id, within the length a device id may have.
    static func deviceID(_ context: ServiceRequestContext, limits: TrackingLimits) throws -> String {
        // The id as a fix names it: a path carries it percent-encoded (`car%201` is `car 1`).
        let raw = context.parameters.get("id") ?? ""
        let device = raw.removingPercentEncoding ?? raw
        guard !device.isEmpty, device.utf8.count <= limits.maxDeviceIDLength else {
            throw Problem.overLimit(
                "id",
                LocalizedText(
                    es: "un id de dispositivo tiene de 1 a \(limits.maxDeviceIDLength) bytes",
                    eu: "gailu-id batek 1 eta \(limits.maxDeviceIDLength) byte artean ditu",
                    en: "a device id has 1 to \(limits.maxDeviceIDLength) bytes"))
        }
        return device
    }

    /// The token's life: the body's `{"ttl": seconds}`, else the default; at most the maximum.
    static func lifetime(asked body: Data) throws -> TimeInterval {
        let most = DeviceToken.maximumLifetime.timeInterval
        guard !body.isEmpty else { return DeviceToken.defaultLifetime.timeInterval }
        struct Asked: Decodable { var ttl: Double? }
        guard let asked = try? JSONDecoder().decode(Asked.self, from: body) else {
            throw Problem.malformedBody("the body must be a JSON object {\"ttl\"?: seconds}")
        }
        guard let ttl = asked.ttl else { return DeviceToken.defaultLifetime.timeInterval }
        guard ttl.isFinite, ttl >= 1, ttl <= most else {
            throw Problem.outOfRange("ttl", "ttl must be a number of seconds from 1 to \(Int(most))")
        }
        return ttl
    }
}
