import Foundation
import GeoqAPI
import GeoqTracking
import Hummingbird

/// `POST /v1/fixes[?layer=L]`: device fixes (a JSON array, one object, or NDJSON) through the
/// geofence engine. Answers once the batch's tracks, events and outbox rows are committed: the
/// events it produced, how many fixes were taken and ignored (older or repeated), and each bad
/// fix by its line or index (the rest of the batch goes on). A batch with no good fix is a 400.
enum FixesRoute {
    static func register(
        on router: Router<BasicRequestContext>, tracking: Tracking, state: ServiceState, limits: ServiceLimits
    ) {
        router.post("/v1/fixes") { request, _ -> Response in
            guard let data = state.data else { throw Problem.stillLoading }
            let layer = try EndpointRequest(request).parameters.value("layer") ?? data.defaultSectorLayer
            let body = try await Routes.body(of: request, limit: limits.maxBodyBytes)
            let batch = FixReader.read(Data(buffer: body))
            if batch.fixes.isEmpty {
                let first = batch.errors.first
                throw Problem.malformedBody(first?.description ?? "the body holds no fix", line: first?.line)
            }
            let outcome = try await tracking.fixes.ingest(batch, layer: layer, data: data)
            return Responses.json(outcome).response
        }
    }
}
