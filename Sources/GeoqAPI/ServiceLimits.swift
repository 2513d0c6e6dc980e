/// What one request may ask of the service: `geoq serve --max-body-bytes`, `--max-batch` and
/// `--request-timeout`.
public struct ServiceLimits: Sendable, Hashable {
    /// The largest request body read, in bytes; a larger one is a 413 problem.
    public var maxBodyBytes: Int
    /// The most points one `POST /v1/sector:batch` answers; more is a 413 problem.
    public var maxBatchPoints: Int
    /// How long a batch may take; one that runs longer stops after the points answered so
    /// far with a last line saying so (single-point requests are bounded by their parameters:
    /// microseconds to milliseconds).
    public var requestTimeout: Duration

    public init(maxBodyBytes: Int = 4 << 20, maxBatchPoints: Int = 10_000, requestTimeout: Duration = .seconds(30)) {
        self.maxBodyBytes = maxBodyBytes
        self.maxBatchPoints = maxBatchPoints
        self.requestTimeout = requestTimeout
    }
}
