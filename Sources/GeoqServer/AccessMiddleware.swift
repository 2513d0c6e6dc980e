import GeoqAPI
import GeoqAccess
import GeoqLayers
import HTTPTypes
import Hummingbird

/// The access gate on Hummingbird's router: every request that reaches the router passes
/// ``AccessGate`` first (the event loop's answers pass it in ``InlineAnswerHandler``); a refusal
/// is answered here, and the credential's principal is handed to the route in the context.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext
    let gate: AccessGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let address = context.remoteAddress?.ipAddress
        let gateRequest = GateRequest(
            method: request.method.rawValue, path: request.uri.path, host: request.head.authority,
            origin: request.headers[.origin], authorization: request.headers[.authorization],
            contentType: request.headers[.contentType],
            hasBody: request.headers[.contentLength].map { $0 != "0" } ?? (request.headers[.transferEncoding] != nil),
            client: address, clientIsLoopback: GateRequest.isLoopback(address),
            forwarded: GateRequest.forwardingHeaders.contains { name in
                HTTPField.Name(name).map { request.headers.contains($0) } ?? false
            })
        // The router's requests do not share their connection's memo (it is the event loop's).
        var memo = AccessGate.Memo()
        var decision = gate.decide(gateRequest, mayWait: false, memo: &memo)
        if decision.needsRouter {
            // A key id the ring does not know: the keys are read again, off the cooperative pool.
            decision = try await onThreadOfItsOwn { [gate] in
                var memo = AccessGate.Memo()
                return gate.decide(gateRequest, mayWait: true, memo: &memo)
            }
        }
        switch decision {
        case .pass(let principal, let headers, let rateLimit):
            var context = context
            context.principal = principal
            var response: Response
            do {
                response = try await next(request, context)
            } catch let error as Problem {
                throw error
            } catch let error as HTTPError {
                throw error
            } catch {
                throw Self.problem(for: error, admin: principal?.has(.admin) == true)
            }
            response.headers.add(headers)
            if let rateLimit { response.headers.add(rateLimit.fields) }
            return response
        case .refuse(let problem, let headers):
            var response = Responses.problem(problem, acceptLanguage: request.headers[.acceptLanguage]).response
            response.headers.add(headers)
            return response
        case .preflight(let headers):
            var response = Response(status: .noContent)
            response.headers.add(headers)
            return response
        case .askRouter:
            // Only the event loop is told to ask the router.
            return Responses.problem(.internalError("the access gate could not decide")).response
        }
    }
}

extension AccessMiddleware {
    /// The problem answered for an error of the store or the service: what failed, and only to
    /// an `admin` the error's own text (it may name the store's path, user, host or query).
    static func problem(for error: any Error, admin: Bool) -> Problem {
        if error is SharedStoreError {
            return .storeUnavailable(admin ? "\(error)" : "the tracking store cannot be reached; try again")
        }
        return .internalError(admin ? "\(error)" : "the request could not be completed")
    }
}

extension HTTPFields {
    /// Adds each (name, value) pair.
    mutating func add(_ pairs: [(String, String)]) {
        for (name, value) in pairs {
            if let field = HTTPField.Name(name) { self.append(HTTPField(name: field, value: value)) }
        }
    }
}
