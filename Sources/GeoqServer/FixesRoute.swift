import Foundation
import GeoqAPI
import GeoqSchedule
import GeoqStore
import GeoqTracking
import Hummingbird

/// `POST /v1/fixes[?layer=L][&radius=M]`: device fixes (a JSON array, one object, or NDJSON)
/// through the geofence engine (a polygon layer, or circles of M metres around a point layer's
/// points), into the caller's tenant (scope `track`, or a device token for its own
/// device's fixes only). Answers once the batch's tracks, events and outbox rows are committed:
/// the events it produced, how many fixes were taken and ignored (older or repeated), and each
/// bad fix by its line or index, a fix dated beyond the clock's skew or past the retention
/// among them (the rest of the batch goes on). A batch with no good fix is a 400.
enum FixesRoute {
    static func register(
        on router: Router<ServiceRequestContext>, tracking: Tracking, state: ServiceState, limits: ServiceLimits
    ) {
        router.post("/v1/fixes") { request, context -> Response in
            let principal = try context.principal(holding: .track)
            guard let data = state.data else { throw Problem.stillLoading }
            let query = EndpointRequest(request).parameters
            try query.allowOnly(EndpointDescription.fixes.parameterNames)
            let layer = try query.value("layer") ?? data.defaultSectorLayer
            let radius = try query.number(
                "radius", in: 1...50_000,
                meaning: LocalizedText(
                    es: "el radio en metros de cada valla alrededor de un punto",
                    eu: "puntu baten inguruko hesi bakoitzaren erradioa metrotan",
                    en: "the radius in metres of each fence around a point"))
            let fences = try tracking.fixes.geofencer(layer: layer, radius: radius, data: data)
            let body = try await Routes.body(of: request, limit: limits.maxBodyBytes)
            let bounds = tracking.fixBounds()
            let batch = body.withUnsafeReadableBytes { FixReader.read($0, within: bounds) }
            let most = tracking.limits.maxFixesPerRequest
            if batch.fixes.count + batch.errors.count > most {
                throw Problem.overLimit(
                    "body",
                    LocalizedText(
                        es: "una petición lleva como mucho \(most) posiciones",
                        eu: "eskaera batek gehienez \(most) kokapen eramaten ditu",
                        en: "a request carries at most \(most) fixes"))
            }
            if let device = principal.device, batch.fixes.contains(where: { $0.device != device }) {
                throw Problem.otherDevice(device)
            }
            if batch.fixes.isEmpty {
                let first = batch.errors.first
                throw Problem.malformedBody(first?.description ?? "the body holds no fix", line: first?.line)
            }
            do {
                let outcome = try await tracking.fixes.ingest(batch, tenant: principal.tenant, fences: fences)
                return Responses.json(outcome).response
            } catch TrackingLimitError.tooManyDevices(_, let limit) {
                throw Problem.overLimit(
                    "device",
                    LocalizedText(
                        es: "la organización ya tiene el máximo de \(limit) dispositivos",
                        eu: "erakundeak \(limit) gailuko muga du jada",
                        en: "the tenant has the most devices allowed (\(limit))"))
            }
        }
    }
}
