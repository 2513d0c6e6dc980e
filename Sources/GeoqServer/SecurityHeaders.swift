import HTTPTypes
import Hummingbird

/// The headers every answer carries, whichever entrance wrote it (the event loop's answers, the
/// router's, problems, the map page's files, Leaflet), so that a browser never takes what the
/// service sends for more than it is:
///
/// - `Content-Security-Policy`: the map page runs scripts, applies style sheets, shows images and
///   asks questions from its own origin only, with no inline script or style markup, no plugin,
///   no `<base>`, and inside no other site's frame. Should a feature name of an imported layer
///   ever reach the page as markup, it could neither run script nor load anything from
///   elsewhere. JSON and problem answers carry it too: opened in a tab, they are documents.
/// - `X-Content-Type-Options: nosniff`: an answer is read as its declared type only, so a
///   GeoJSON body holding markup is never rendered as HTML, nor an answer run as a script.
/// - `Referrer-Policy: no-referrer`: the page's address holds the point asked (`lat`, `lon`),
///   which no request the page makes has to tell anyone.
///
/// One list for both entrances: the router adds it as fields (``SecurityHeadersMiddleware``),
/// the answers written as bytes (``InlineAnswerHandler``, ``ConnectionDeadlines``) copy
/// ``headLines``, made once.
enum SecurityHeaders {
    /// What the map page needs and no more. Leaflet positions and sizes its elements through
    /// the style properties of the DOM (which a policy does not govern) and loads its images
    /// (`images/layers.png`, the marker icons) from its own folder; the page has no map tiles.
    static let contentSecurityPolicy = [
        "default-src 'self'", "img-src 'self'", "style-src 'self'", "script-src 'self'", "connect-src 'self'",
        "object-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'",
    ].joined(separator: "; ")

    /// The headers, name and value, in the order they are written.
    static let pairs: [(name: String, value: String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// The headers as the router adds them to a response.
    static let fields: [HTTPField] = pairs.compactMap { pair in
        HTTPField.Name(pair.name).map { HTTPField(name: $0, value: pair.value) }
    }

    /// The headers as head lines, each after its `\r\n`: one copy into an answer's head.
    static let headLines: [UInt8] = Array(pairs.map { "\r\n\($0.name): \($0.value)" }.joined().utf8)
}

/// Adds ``SecurityHeaders`` to every answer of the router. It comes first, so that it also sees
/// what the middlewares after it answer themselves (the access gate's refusals, problems, 404s);
/// an error of Hummingbird's that none of them turned into an answer is answered here, as
/// Hummingbird would, with the headers.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers.append(contentsOf: SecurityHeaders.fields)
        return response
    }
}
