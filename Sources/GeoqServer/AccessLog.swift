import Hummingbird
import Logging

/// One log line per answered request, written when the answer is known: method, path,
/// status and duration, with the request id Hummingbird puts in the context's logger. Problems
/// are answers too (logged with their 4xx/5xx status); an error that escapes every middleware is
/// logged with the status its client will see and thrown on.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let level: Logger.Level

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context: context, status: response.status.code, since: started)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, context: context, status: status, since: started)
            throw error
        }
    }

    func log(_ request: Request, context: Context, status: Int, since started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
        let duration = (milliseconds * 1000).rounded() / 1000
        context.logger.log(
            level: level, "\(request.method) \(request.uri.path) \(status) \(duration) ms",
            metadata: [
                "hb.request.method": "\(request.method)", "hb.request.path": "\(request.uri.path)",
                "hb.response.status": "\(status)", "duration_ms": "\(duration)",
            ])
    }
}
