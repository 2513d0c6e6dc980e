import Foundation
import GeoqCore
import GeoqParking
import GeoqQuery
import GeoqSchedule

/// The geofence engine over one layer: each fix of a device moves its ``DeviceTrack`` on and
/// yields the events it caused. Values only (no files, no store, no clock of its own), so a
/// replay of the same fixes gives the same events.
///
/// Two things are followed apart: the phone's place (enter, exit, dwell) and the car it parked
/// (parked, left). The rules, with `a` the fix's accuracy (0 when unknown), `d` the distance from
/// the fix to the feature's boundary (local metric at the fix's latitude), and a *run* a series of
/// consecutive fixes meeting a condition, at least `confirmFixes` of them spanning at least
/// `confirmSeconds`:
/// - **enter**: a run of fixes covered by one feature (``PolygonIndex``, covers: the edge counts
///   as inside) with their accuracy circle inside it (`d ≥ a`); re-entering the feature it last
///   exited needs `d ≥ max(a, margin)`.
/// - **exit**: a run of fixes outside the current feature by more than max(a, margin). Outside
///   by less, the device is still in the feature (hysteresis), and one noisy fix past the margin
///   is not an exit. The exit and the enter of a neighbouring feature can be confirmed by the
///   same fix.
/// - **standing still**: a phone whose stay has lasted `dwellSeconds / 2` and fits a speed under
///   `parkedSpeed` is placed at the stay's anchor, with accuracy `a / √n` over its `n` fixes; a
///   phone within its parked car's radius at the car. Noise alone then crosses no edge.
/// - **accuracy gating**: a fix whose accuracy circle straddles a boundary that matters (`d < a`)
///   changes no place and confirms nothing (it ends a run); it still counts as the device's
///   last fix.
/// - **ordering**: a fix at or before the device's last fix is ignored (``Advance/ignored``).
/// - **dwell**: once per stay in a feature, at the first fix `dwellSeconds` after the enter.
/// - **stay**: fixes that keep within `stayRadius + 2a` of their mean (the anchor), a run of
///   fixes beyond it ending the stay (the next starts there). See ``MotionFit``.
/// - **parked**: once a stay inside the feature has lasted `dwellSeconds` (so never before
///   `dwell`) and its fixes fit a speed under `parkedSpeed` (slow, steady traffic does not).
///   The car is at the anchor: the event's position, and the point of its park answer (see
///   ``parkAnswer(at:time:)``). No other `parked` until the car has left.
/// - **left**: the car moves again: the phone leaves the car's radius and its way from there
///   fits `vehicleSpeed` or more over at least `moveOffSeconds`, within
///   `departureWindowSeconds`. Slower (walking away) leaves the car parked, even when the phone
///   exits the feature, until the phone is back within the radius; a later ride (a bus, a taxi)
///   is not the car. `left` names the parked car's feature and visit.
/// - **visit**: one id per stay in a feature, from device, layer, feature and entry time (a
///   replay gives the same ids).
/// - **silence**: a fix more than `silenceSeconds` after the last one first ends the stay in the
///   feature with a synthetic exit (reason `silent`) dated last fix + timeout, as
///   ``expire(_:at:)`` does. A parked car stays parked.
public struct Geofencer: Sendable {
    /// The layer's name (the `layer` of every track and event).
    public let name: String
    /// The fences' features: item `i` of ``shapes`` is `features[i]`.
    public let features: [Feature]
    /// The polygons of an areal layer (empty when the fences are circles).
    let polygons: PolygonIndex
    /// The circles around a point layer's points, when the fences are circles.
    let circles: CircleFences?
    /// The polygons of an areal layer, or circles around a point layer's points.
    public var shapes: FenceShapes { circles.map { .circles($0) } ?? .polygons(polygons) }
    public let options: GeofenceOptions
    /// The city's parking answer for `parked`; nil: `parked` carries no answer.
    public let parkQuery: ParkQuery?
    public let language: Language
    let itemByID: [String: Int]
    /// The city's clock for event times; nil: UTC.
    let timeZone: TimeZone?

    /// What one fix did: the events, in order, or why it was ignored.
    public struct Advance: Hashable, Sendable {
        public var events: [TrackingEvent]
        public var ignored: IgnoredFix?
    }

    /// The engine over the polygons of `layer`.
    public init(
        layer: Layer, options: GeofenceOptions = GeofenceOptions(),
        parkQuery: ParkQuery? = nil, language: Language = .es
    ) {
        self.init(
            name: layer.name, features: layer.features, shapes: .polygons(layer.index), options: options,
            parkQuery: parkQuery, language: language)
    }

    /// The engine over circles of `radius` metres around the points of `layer` (a feature's own
    /// `radius` property, a number of metres, where it has one).
    public init(
        points layer: PointLayer, radius: Double, options: GeofenceOptions = GeofenceOptions(),
        parkQuery: ParkQuery? = nil, language: Language = .es
    ) {
        let radii = layer.features.map { feature in
            if case .number(let own)? = feature.properties["radius"], own.isFinite, own > 0 { return own }
            return radius
        }
        self.init(
            name: layer.name, features: layer.features,
            shapes: .circles(CircleFences(centers: layer.positions, radii: radii, index: layer.index)),
            options: options, parkQuery: parkQuery, language: language)
    }

    public init(
        name: String, features: [Feature], shapes: FenceShapes, options: GeofenceOptions = GeofenceOptions(),
        parkQuery: ParkQuery? = nil, language: Language = .es
    ) {
        self.name = name
        self.features = features
        // Kept apart rather than as the enum: the polygons are then read in place at every
        // fix, not copied out of it (a fifth of the engine's time).
        switch shapes {
        case .polygons(let index): (polygons, circles) = (index, nil)
        case .circles(let fences): (polygons, circles) = (PolygonIndex([]), fences)
        }
        self.options = options
        self.parkQuery = parkQuery
        self.language = language
        var items: [String: Int] = [:]
        for (i, f) in features.enumerated() where items[f.id] == nil { items[f.id] = i }
        itemByID = items
        timeZone = parkQuery?.tariffs.clock.timeZone
    }

    /// Moves `track` on with `fix` (a nil track: the device's first fix on this layer). The fix
    /// must be of the track's device; the caller keeps one track per device and layer.
    public func advance(_ track: inout DeviceTrack?, with fix: Fix) -> Advance {
        guard track != nil else {
            var events: [TrackingEvent] = []
            var t = DeviceTrack(device: fix.device, layer: name, first: fix)
            step(&t, fix, events: &events)
            track = t
            return Advance(events: events, ignored: nil)
        }
        return advance(&track!, with: fix)
    }

    /// Moves a device's `track` on with `fix`, in place: a track is some hundreds of bytes, and
    /// this runs for every fix.
    public func advance(_ t: inout DeviceTrack, with fix: Fix) -> Advance {
        if fix.time <= t.lastTime {
            let reason: IgnoredFix.Reason = fix.time == t.lastTime ? .duplicate : .older
            return Advance(
                events: [],
                ignored: IgnoredFix(
                    reason: reason, device: fix.device, time: FixTime.utc(fix.time), lastTime: FixTime.utc(t.lastTime)))
        }
        var events = expire(&t, at: fix.time)
        t.lastTime = fix.time
        t.lastLatitude = fix.latitude
        t.lastLongitude = fix.longitude
        t.lastAccuracy = fix.accuracy
        step(&t, fix, events: &events)
        return Advance(events: events, ignored: nil)
    }

    /// Ends the stay of a device silent for more than the silence timeout at `time`: a synthetic
    /// exit (reason `silent`) at the device's last position, dated last fix + timeout (so the
    /// event does not depend on when this is called). Nothing when the device is in no feature
    /// or not yet silent.
    public func expire(_ track: inout DeviceTrack, at time: Date) -> [TrackingEvent] {
        guard track.featureID != nil, time.timeIntervalSince(track.lastTime) > options.silenceSeconds else { return [] }
        let at = track.lastTime.addingTimeInterval(options.silenceSeconds)
        let event = make(.exit, &track, position: lastPosition(track), time: at, reason: "silent")
        clearPlace(&track)
        return [event]
    }

    /// After a reload: a synthetic exit (reason `removed`) dated `time` when `newLayer` no longer
    /// has the feature the device is in. The caller then goes on with a Geofencer over `newLayer`.
    public func reconcile(_ track: inout DeviceTrack, with newLayer: Layer, at time: Date) -> [TrackingEvent] {
        reconcile(&track, withFeatures: newLayer.features, at: time)
    }

    /// A synthetic exit (reason `removed`) dated `time` when this engine's features no longer
    /// hold the one the device is in (the track was made over an older version of the layer).
    public func reconcile(_ track: inout DeviceTrack, at time: Date) -> [TrackingEvent] {
        reconcile(&track, withFeatures: features, at: time)
    }

    private func reconcile(_ track: inout DeviceTrack, withFeatures features: [Feature], at time: Date)
        -> [TrackingEvent]
    {
        guard let id = track.featureID, !features.contains(where: { $0.id == id }) else { return [] }
        let event = make(.exit, &track, position: lastPosition(track), time: time, reason: "removed")
        clearPlace(&track)
        return [event]
    }

    // MARK: - The phone's place

    private func step(_ t: inout DeviceTrack, _ fix: Fix, events: inout [TrackingEvent]) {
        place(&t, fix, &events)
        follow(&t, fix, &events)
    }

    /// Where a fix puts the device, for the enter and exit rules.
    private enum Reading {
        /// In the current feature, or outside it within the margin.
        case staying
        /// Its accuracy circle straddles a boundary that matters: neither way.
        case unsure
        /// Beyond the current feature's margin (nil when in none), and covered by `entering`
        /// (nil: by no feature it may enter).
        case elsewhere(entering: Int?)
    }

    private func place(_ t: inout DeviceTrack, _ fix: Fix, _ events: inout [TrackingEvent]) {
        let (p, accuracy) = placement(t, fix)
        let metric = LocalMetric(wgs84AtLatitude: fix.latitude)
        let position = TrackingEvent.Position(latitude: fix.latitude, longitude: fix.longitude)

        if let id = t.featureID, itemByID[id] == nil {
            // The layer changed under the track without a reconcile: the feature is gone.
            events.append(make(.exit, &t, position: position, time: fix.time, reason: "removed"))
            clearPlace(&t)
        }
        let reading = read(t, p, accuracy, metric)
        switch reading {
        case .unsure:
            // Not a fix of the run: a run is of consecutive fixes that each meet its condition.
            t.leaving = nil
            t.entering = nil
        case .staying:
            t.leaving = nil
            t.entering = nil
        case .elsewhere(let candidate):
            if t.featureID != nil { t.leaving = extend(t.leaving, feature: nil, fix) }
            if let candidate {
                t.entering = extend(t.entering, feature: features[candidate].id, fix)
            } else {
                t.entering = nil
            }
            if let id = t.featureID {
                guard let leaving = t.leaving, confirmed(leaving, fix) else { return }
                events.append(make(.exit, &t, position: position, time: fix.time))
                t.exitedID = id
                clearPlace(&t)
            }
            if let candidate, let entering = t.entering, confirmed(entering, fix) {
                enter(&t, features[candidate], fix, &events)
            }
        }
    }

    /// Where the place rules see the device, and how accurately: a phone that stands still is
    /// where its stay's anchor is (the mean of its fixes, with the fix's accuracy over the
    /// square root of their number), and a phone at its parked car where the car is; a moving
    /// phone where its fix is. So a phone standing by an edge does not cross it with its noise.
    private func placement(_ t: DeviceTrack, _ fix: Fix) -> (Point, accuracy: Double) {
        let accuracy = fix.accuracy ?? 0
        if let car = t.car, t.excursion == nil, t.onFoot != true {
            let metric = LocalMetric(wgs84AtLatitude: car.latitude)
            let carPoint = Point(x: car.longitude, y: car.latitude)
            if metric.distance(carPoint, Point(x: fix.longitude, y: fix.latitude)) <= stayRadius(fix) {
                return (carPoint, 0)
            }
        }
        if let stay = t.stay, stay.duration >= options.dwellSeconds / 2, stay.speed < options.parkedSpeed,
            stay.distanceFromAnchor(to: fix) <= stayRadius(fix)
        {
            let anchor = stay.anchor
            return (Point(x: anchor.longitude, y: anchor.latitude), accuracy / Double(stay.fixes).squareRoot())
        }
        return (Point(x: fix.longitude, y: fix.latitude), accuracy)
    }

    /// Which way `p` points: see ``Reading``.
    private func read(_ t: DeviceTrack, _ p: Point, _ accuracy: Double, _ metric: LocalMetric) -> Reading {
        if let circles { return read(t, p, accuracy, metric, in: circles) }
        return read(t, p, accuracy, metric, in: polygons)
    }

    private func read(
        _ t: DeviceTrack, _ p: Point, _ accuracy: Double, _ metric: LocalMetric, in shapes: some FenceShape
    ) -> Reading {
        if let id = t.featureID, let item = itemByID[id] {
            let inside = shapes.contains(p, item: item)
            if inside && accuracy == 0 { return .staying }
            let d = shapes.distanceToEdge(p, item: item, metric: metric)
            if inside || d <= max(accuracy, options.marginMetres) {
                // The accuracy circle reaches across the edge.
                if d < accuracy || (!inside && d <= accuracy) { return .unsure }
                return .staying
            }
        }
        var candidate: Int?
        var straddles = false
        let reentry = t.exitedID.flatMap { itemByID[$0] }
        let margin = options.marginMetres
        shapes.forEachCovering(p) { item in
            // Re-entering the feature just left needs the mirror of the exit rule.
            let depth = reentry == item ? max(accuracy, margin) : accuracy
            if depth > 0 && shapes.distanceToEdge(p, item: item, metric: metric) < depth {
                straddles = true
            } else if candidate == nil || item < candidate! {
                candidate = item
            }
        }
        if straddles { return .unsure }
        return .elsewhere(entering: candidate)
    }

    /// The run `crossing` with `fix` added, or a new one from `fix` when it was toward another feature.
    private func extend(_ crossing: DeviceTrack.Crossing?, feature: String?, _ fix: Fix) -> DeviceTrack.Crossing {
        guard var run = crossing, run.featureID == feature else {
            return DeviceTrack.Crossing(featureID: feature, since: fix.time, fixes: 1)
        }
        run.fixes += 1
        return run
    }

    /// Whether `run`, with `fix` its last, is long enough to act on (see ``GeofenceOptions/confirmFixes``).
    func confirmed(_ run: DeviceTrack.Crossing, _ fix: Fix) -> Bool {
        run.fixes >= options.confirmFixes && fix.time.timeIntervalSince(run.since) >= options.confirmSeconds
    }

    private func enter(_ t: inout DeviceTrack, _ feature: Feature, _ fix: Fix, _ events: inout [TrackingEvent]) {
        t.exitedID = nil
        t.entering = nil
        t.leaving = nil
        t.featureID = feature.id
        t.featureName = feature.name
        t.enteredAt = fix.time
        t.visit = VisitID.make(device: t.device, layer: t.layer, feature: feature.id, entered: fix.time)
        events.append(
            make(.enter, &t, position: .init(latitude: fix.latitude, longitude: fix.longitude), time: fix.time))
    }

    /// Ends the phone's stay in its feature (the car, if parked, stays parked).
    private func clearPlace(_ t: inout DeviceTrack) {
        t.featureID = nil
        t.featureName = nil
        t.visit = nil
        t.enteredAt = nil
        t.dwelled = false
        t.leaving = nil
        t.entering = nil
    }

    private func lastPosition(_ t: DeviceTrack) -> TrackingEvent.Position {
        .init(latitude: t.lastLatitude, longitude: t.lastLongitude)
    }

    /// An event of the phone's stay, or with `car` of the parked car's.
    func make(
        _ kind: TrackingEvent.Kind, _ t: inout DeviceTrack, position: TrackingEvent.Position, time: Date,
        reason: String? = nil, car: DeviceTrack.ParkedCar? = nil
    ) -> TrackingEvent {
        let event = TrackingEvent(
            event: kind, device: t.device, layer: t.layer, featureID: car?.featureID ?? t.featureID ?? "",
            featureName: car.map(\.featureName) ?? t.featureName,
            time: FixTime.format(time, in: timeZone), position: position, visit: car?.visit ?? t.visit ?? "",
            sequence: t.nextSequence,
            reason: reason, park: nil, reminders: nil)
        t.nextSequence += 1
        return event
    }
}
