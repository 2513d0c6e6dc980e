/// A PROJ failure: the CRS definition involved, what was being done, and PROJ's own message.
///
/// The message comes from PROJ's log (captured by ``PROJContext``), e.g.
/// `"proj_create: crs not found"`, rather than the bare errno text, which is often just
/// `"Unknown error (code 4096)"`.
public struct PROJError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The CRS definition (or `"source -> target"` for a transformation) as the caller gave it.
    public let crs: String
    /// What was being done: `"create CRS"`, `"create transformation"`, `"transform"`.
    public let operation: String
    /// PROJ's message(s), joined with `"; "`.
    public let message: String
    /// For a failed transform, the zero-based index of the first position that failed.
    public let pointIndex: Int?

    public init(crs: String, operation: String, message: String, pointIndex: Int? = nil) {
        self.crs = crs
        self.operation = operation
        self.message = message
        self.pointIndex = pointIndex
    }

    public var description: String {
        let shown = crs.count > 80 ? String(crs.prefix(77)) + "..." : crs
        if let pointIndex {
            return "PROJ \(operation) failed for \(shown) at position \(pointIndex): \(message)"
        }
        return "PROJ \(operation) failed for \(shown): \(message)"
    }
}
