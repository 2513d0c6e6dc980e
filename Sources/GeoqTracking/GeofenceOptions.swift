/// The geofencing rules' thresholds.
public struct GeofenceOptions: Hashable, Sendable {
    /// Hysteresis: a device leaves a feature only when it is outside by more than
    /// max(its accuracy, margin), in metres.
    public var marginMetres: Double
    /// `dwell` after this many seconds inside; `parked` after this many seconds slow inside.
    public var dwellSeconds: Double
    /// Slower than this (m/s) counts as stopped for `parked`; faster ends a parked stay (`left`).
    public var parkedSpeed: Double
    /// Faster than `parkedSpeed` for this long (seconds) ends a stop: `left` when parked.
    public var moveOffSeconds: Double
    /// No fix for this long ends the stay with a synthetic exit (reason `silent`).
    public var silenceSeconds: Double

    public init(
        marginMetres: Double = 20, dwellSeconds: Double = 60, parkedSpeed: Double = 2, moveOffSeconds: Double = 10,
        silenceSeconds: Double = 600
    ) {
        self.moveOffSeconds = moveOffSeconds
        self.marginMetres = marginMetres
        self.dwellSeconds = dwellSeconds
        self.parkedSpeed = parkedSpeed
        self.silenceSeconds = silenceSeconds
    }
}
