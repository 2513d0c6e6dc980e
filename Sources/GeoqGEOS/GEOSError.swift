/// A GEOS call that failed: which operation, and the message GEOS reported for it.
///
/// GEOS reports failures through the context's error handler (see ``GEOSContext``); the
/// message is captured there, so it is GEOS's own text (for example
/// `"ParseException: Expected word but encountered end of stream"`), not a generic code.
public struct GEOSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What geoq asked GEOS to do, e.g. `"readWKT"`, `"covers"`, `"makePolygon"`.
    public let operation: String
    /// The message GEOS reported, or an explanation written by the adapter when GEOS gave none
    /// (or when the failure is the adapter's own, such as a geometry type the core cannot hold).
    public let message: String

    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    public var description: String { "GEOS \(operation) failed: \(message)" }
}
