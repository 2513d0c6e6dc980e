import Foundation
import GeoqCore
import GeoqParking
import GeoqQuery
import GeoqSchedule

/// The geofence engine over one layer: each fix of a device moves its ``DeviceTrack`` on and
/// yields the events it caused. Values only (no files, no store, no clock of its own), so a
/// replay of the same fixes gives the same events.
///
/// The rules, with `a` the fix's accuracy (0 when unknown) and `d` the distance from the fix to
/// the feature's boundary (local metric at the fix's latitude):
/// - **enter**: the fix is covered by a feature (``PolygonIndex``, covers: the edge counts as
///   inside) and its accuracy circle lies inside it (`d ≥ a`).
/// - **exit**: the fix is outside the current feature by more than max(a, margin). Outside by
///   less, the device is still in the feature (hysteresis: jitter along an edge gives no pairs).
///   Re-entering the feature it last exited needs the mirror: inside by at least max(a, margin).
/// - **accuracy gating**: a fix whose accuracy circle straddles the boundary of the current
///   feature (`d < a`) or of a feature it would enter changes no state and emits nothing; it
///   still counts as the device's last fix (for ordering and speed).
/// - **ordering**: a fix at or before the device's last fix is ignored (``Advance/ignored``).
/// - **speed**: the fix's own, else from the previous fix: the geodesic distance less both
///   accuracies (what the uncertainty cannot explain), over the time between them. With 15 m
///   jitter the raw distance would read 20 m/s for a parked car; the lower bound never does.
/// - **dwell**: once per stay, at the first fix `dwellSeconds` after the enter.
/// - **parked**: once per stop, when the device has been slower than `parkedSpeed` for
///   `dwellSeconds` inside (so never before `dwell`). It carries the park answer (see
///   ``parkAnswer(at:time:)``).
/// - **left**: a parked device moves off: faster than `parkedSpeed` on every fix for
///   `moveOffSeconds` while inside (one noisy reading is not a departure; it may park again in
///   the same stay), or the exit itself (`left` comes just before its `exit`). A stop, likewise,
///   is ended only by such sustained speed.
/// - **visit**: one id per stay, from device, layer, feature and entry time (a replay gives
///   the same ids).
/// - **silence**: a fix more than `silenceSeconds` after the last one first ends the stay with
///   a synthetic exit (reason `silent`) dated last fix + timeout, as ``expire(_:at:)`` does.
public struct Geofencer: Sendable {
    public let layer: Layer
    public let options: GeofenceOptions
    /// The city's parking answer for `parked`; nil: `parked` carries no answer.
    public let parkQuery: ParkQuery?
    public let language: Language
    let geodesic: any GeodesicSolving
    let itemByID: [String: Int]
    /// The city's clock for event times; nil: UTC.
    let timeZone: TimeZone?

    /// What one fix did: the events, in order, or why it was ignored.
    public struct Advance: Hashable, Sendable {
        public var events: [TrackingEvent]
        public var ignored: IgnoredFix?
    }

    public init(
        layer: Layer, geodesic: any GeodesicSolving, options: GeofenceOptions = GeofenceOptions(),
        parkQuery: ParkQuery? = nil, language: Language = .es
    ) {
        self.layer = layer
        self.geodesic = geodesic
        self.options = options
        self.parkQuery = parkQuery
        self.language = language
        var items: [String: Int] = [:]
        for (i, f) in layer.features.enumerated() where items[f.id] == nil { items[f.id] = i }
        itemByID = items
        timeZone = parkQuery?.tariffs.clock.timeZone
    }

    /// Moves `track` on with `fix` (a nil track: the device's first fix on this layer). The fix
    /// must be of the track's device; the caller keeps one track per device and layer.
    public func advance(_ track: inout DeviceTrack?, with fix: Fix) -> Advance {
        var events: [TrackingEvent] = []
        guard var t = track else {
            var t = DeviceTrack(device: fix.device, layer: layer.name, first: fix)
            step(&t, fix, speed: fix.speed, events: &events)
            track = t
            return Advance(events: events, ignored: nil)
        }
        if fix.time <= t.lastTime {
            let reason: IgnoredFix.Reason = fix.time == t.lastTime ? .duplicate : .older
            return Advance(
                events: [],
                ignored: IgnoredFix(
                    reason: reason, device: fix.device, time: FixTime.utc(fix.time), lastTime: FixTime.utc(t.lastTime)))
        }
        events += expire(&t, at: fix.time)
        let speed = fix.speed ?? derivedSpeed(from: t, to: fix)
        t.lastTime = fix.time
        t.lastLatitude = fix.latitude
        t.lastLongitude = fix.longitude
        t.lastAccuracy = fix.accuracy
        step(&t, fix, speed: speed, events: &events)
        track = t
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
        clearStay(&track)
        return [event]
    }

    /// After a reload: a synthetic exit (reason `removed`) dated `time` when `newLayer` no longer
    /// has the feature the device is in. The caller then goes on with a Geofencer over `newLayer`.
    public func reconcile(_ track: inout DeviceTrack, with newLayer: Layer, at time: Date) -> [TrackingEvent] {
        guard let id = track.featureID, !newLayer.features.contains(where: { $0.id == id }) else { return [] }
        let event = make(.exit, &track, position: lastPosition(track), time: time, reason: "removed")
        clearStay(&track)
        return [event]
    }

    // MARK: - The rules

    private func step(_ t: inout DeviceTrack, _ fix: Fix, speed: Double?, events: inout [TrackingEvent]) {
        let p = Point(x: fix.longitude, y: fix.latitude)
        let accuracy = fix.accuracy ?? 0
        let metric = LocalMetric(wgs84AtLatitude: fix.latitude)
        let position = TrackingEvent.Position(latitude: fix.latitude, longitude: fix.longitude)

        if let id = t.featureID {
            guard let item = itemByID[id] else {
                // The layer changed under the track without a reconcile: the feature is gone.
                events.append(make(.exit, &t, position: position, time: fix.time, reason: "removed"))
                clearStay(&t)
                return enterIfInside(&t, fix, p, accuracy, metric, speed, &events)
            }
            let inside = layer.index.locate(p, item: item) != .exterior
            if inside && accuracy == 0 { return stay(&t, fix, speed, position, &events) }
            let d = layer.index.nearestBoundaryPoint(to: p, item: item, metric: metric).distance
            if inside || d <= max(accuracy, options.marginMetres) {
                // Gated: the accuracy circle reaches across the edge.
                if d < accuracy || (!inside && d <= accuracy) { return }
                return stay(&t, fix, speed, position, &events)
            }
            if t.parked { events.append(make(.left, &t, position: position, time: fix.time)) }
            events.append(make(.exit, &t, position: position, time: fix.time))
            t.exitedID = id
            clearStay(&t)
        }
        enterIfInside(&t, fix, p, accuracy, metric, speed, &events)
    }

    private func enterIfInside(
        _ t: inout DeviceTrack, _ fix: Fix, _ p: Point, _ accuracy: Double, _ metric: LocalMetric, _ speed: Double?,
        _ events: inout [TrackingEvent]
    ) {
        var candidate: Int?
        var straddles = false
        let index = layer.index
        let reentry = t.exitedID.flatMap { itemByID[$0] }
        let margin = options.marginMetres
        index.forEachCovering(p) { item in
            // Re-entering the feature just left needs the mirror of the exit rule.
            let depth = reentry == item ? max(accuracy, margin) : accuracy
            if depth > 0 && index.nearestBoundaryPoint(to: p, item: item, metric: metric).distance < depth {
                straddles = true
            } else if candidate == nil || item < candidate! {
                candidate = item
            }
        }
        guard let item = candidate, !straddles else { return }
        let feature = layer.features[item]
        t.exitedID = nil
        t.featureID = feature.id
        t.featureName = feature.name
        t.enteredAt = fix.time
        t.visit = VisitID.make(device: t.device, layer: t.layer, feature: feature.id, entered: fix.time)
        t.slowSince = speed.map { $0 < options.parkedSpeed } == true ? fix.time : nil
        events.append(
            make(.enter, &t, position: .init(latitude: fix.latitude, longitude: fix.longitude), time: fix.time))
    }

    private func stay(
        _ t: inout DeviceTrack, _ fix: Fix, _ speed: Double?, _ position: TrackingEvent.Position,
        _ events: inout [TrackingEvent]
    ) {
        // Unknown speed (a first fix without one) neither starts nor ends a stop.
        if let speed {
            if speed < options.parkedSpeed {
                t.fastSince = nil
                if t.slowSince == nil { t.slowSince = fix.time }
            } else {
                if t.fastSince == nil { t.fastSince = fix.time }
                if fix.time.timeIntervalSince(t.fastSince!) >= options.moveOffSeconds {
                    if t.parked {
                        events.append(make(.left, &t, position: position, time: fix.time))
                        t.parked = false
                    }
                    t.slowSince = nil
                }
            }
        }
        if !t.dwelled, let entered = t.enteredAt, fix.time.timeIntervalSince(entered) >= options.dwellSeconds {
            t.dwelled = true
            events.append(make(.dwell, &t, position: position, time: fix.time))
        }
        if !t.parked, t.dwelled, let slow = t.slowSince, fix.time.timeIntervalSince(slow) >= options.dwellSeconds {
            t.parked = true
            var event = make(.parked, &t, position: position, time: fix.time)
            let (answer, reminders) = parkAnswer(
                at: Point(x: fix.longitude, y: fix.latitude), time: fix.time)
            event.park = answer
            event.reminders = reminders
            events.append(event)
        }
    }

    private func derivedSpeed(from t: DeviceTrack, to fix: Fix) -> Double {
        let dt = fix.time.timeIntervalSince(t.lastTime)
        let d = geodesic.distanceAndBearing(
            from: Point(x: t.lastLongitude, y: t.lastLatitude), to: Point(x: fix.longitude, y: fix.latitude)
        ).distance
        return max(0, d - (t.lastAccuracy ?? 0) - (fix.accuracy ?? 0)) / dt
    }

    private func clearStay(_ t: inout DeviceTrack) {
        t.featureID = nil
        t.featureName = nil
        t.visit = nil
        t.enteredAt = nil
        t.slowSince = nil
        t.fastSince = nil
        t.dwelled = false
        t.parked = false
    }

    private func lastPosition(_ t: DeviceTrack) -> TrackingEvent.Position {
        .init(latitude: t.lastLatitude, longitude: t.lastLongitude)
    }

    private func make(
        _ kind: TrackingEvent.Kind, _ t: inout DeviceTrack, position: TrackingEvent.Position, time: Date,
        reason: String? = nil
    ) -> TrackingEvent {
        let event = TrackingEvent(
            event: kind, device: t.device, layer: t.layer, featureID: t.featureID ?? "", featureName: t.featureName,
            time: FixTime.format(time, in: timeZone), position: position, visit: t.visit ?? "",
            sequence: t.nextSequence,
            reason: reason, park: nil, reminders: nil)
        t.nextSequence += 1
        return event
    }
}
