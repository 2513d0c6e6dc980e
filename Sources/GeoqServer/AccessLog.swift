import Hummingbird
import Logging

/// One log line per answered request, written when the answer is known: method, path,
/// status and duration, with the request id in the logger's metadata. Problems are answers too
/// (logged with their 4xx/5xx status).
struct AccessLog: Sendable {
    let level: Logger.Level

    func record(
        method: String, path: String, status: Int, since started: ContinuousClock.Instant, logger: Logger
    ) {
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
        let duration = (milliseconds * 1000).rounded() / 1000
        logger.log(
            level: level, "\(method) \(path) \(status) \(duration) ms",
            metadata: [
                "hb.request.method": "\(method)", "hb.request.path": "\(path)",
                "hb.response.status": "\(status)", "duration_ms": "\(duration)",
            ])
    }
}

/// The access log of requests that go through Hummingbird's router, with the request id it
/// puts in the context's logger. An error that escapes every middleware is logged with the
/// status its client will see and thrown on.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let log: AccessLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log.record(
                method: "\(request.method)", path: request.uri.path, status: response.status.code, since: started,
                logger: context.logger)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log.record(
                method: "\(request.method)", path: request.uri.path, status: status, since: started,
                logger: context.logger)
            throw error
        }
    }
}
