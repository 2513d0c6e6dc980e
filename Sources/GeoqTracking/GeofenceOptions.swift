/// The geofencing rules' thresholds (docs/SERVICE.md explains each rule with its default).
public struct GeofenceOptions: Hashable, Sendable {
    /// Hysteresis: a device leaves a feature only when it is outside by more than
    /// max(its accuracy, margin), in metres; re-entering the feature just left needs as much inside.
    public var marginMetres: Double
    /// An enter or an exit needs its condition on at least `confirmFixes` consecutive fixes
    /// spanning at least `confirmSeconds` (noise past the margin on one fix is not a crossing).
    public var confirmFixes: Int
    public var confirmSeconds: Double
    /// `dwell` this many seconds after the enter; `parked` once a stay has lasted this long.
    public var dwellSeconds: Double
    /// A stay's radius: this plus twice the fix's reported accuracy, in metres.
    public var stayRadiusMetres: Double
    /// A stay is a stop only if its fixes fit a speed under this (m/s): slow traffic is not parked.
    public var parkedSpeed: Double
    /// A parked car moves off when the phone leaves its radius at this speed (m/s) or more.
    public var vehicleSpeed: Double
    /// The departure's speed is judged over at least this long (seconds) after leaving the radius.
    public var moveOffSeconds: Double
    /// Leaving the radius slower than that for this long (seconds) is walking away: the car
    /// stays parked until the phone is back at it.
    public var departureWindowSeconds: Double
    /// No fix for this long ends the stay with a synthetic exit (reason `silent`).
    public var silenceSeconds: Double

    public init(
        marginMetres: Double = 20, confirmFixes: Int = 2, confirmSeconds: Double = 5, dwellSeconds: Double = 60,
        stayRadiusMetres: Double = 25, parkedSpeed: Double = 0.5, vehicleSpeed: Double = 4,
        moveOffSeconds: Double = 20, departureWindowSeconds: Double = 120, silenceSeconds: Double = 600
    ) {
        self.marginMetres = marginMetres
        self.confirmFixes = confirmFixes
        self.confirmSeconds = confirmSeconds
        self.dwellSeconds = dwellSeconds
        self.stayRadiusMetres = stayRadiusMetres
        self.parkedSpeed = parkedSpeed
        self.vehicleSpeed = vehicleSpeed
        self.moveOffSeconds = moveOffSeconds
        self.departureWindowSeconds = departureWindowSeconds
        self.silenceSeconds = silenceSeconds
    }

    /// Every crossing on its first fix: for traces without noise, where each fix is exact.
    public static let immediate = GeofenceOptions(confirmFixes: 1, confirmSeconds: 0)
}
