import Foundation
import GeoqCore

/// The car's rules: a stay becomes `parked`, and the car moving again is `left` (see
/// ``Geofencer`` for the rules in words).
extension Geofencer {
    func follow(_ t: inout DeviceTrack, _ fix: Fix, _ events: inout [TrackingEvent]) {
        let position = TrackingEvent.Position(latitude: fix.latitude, longitude: fix.longitude)
        if !t.dwelled, let entered = t.enteredAt, fix.time.timeIntervalSince(entered) >= options.dwellSeconds {
            t.dwelled = true
            events.append(make(.dwell, &t, position: position, time: fix.time))
        }
        if t.parked, t.car == nil {
            // A track stored before the car was kept apart: parked where the phone last was.
            t.car = DeviceTrack.ParkedCar(
                latitude: fix.latitude, longitude: fix.longitude, featureID: t.featureID ?? "",
                featureName: t.featureName, visit: t.visit ?? "", since: fix.time)
        }
        if let car = t.car {
            watchCar(&t, car, fix, &events)
        } else {
            watchStay(&t, fix, &events)
        }
    }

    /// The radius of a stay around its anchor for a fix of this accuracy.
    func stayRadius(_ fix: Fix) -> Double { options.stayRadiusMetres + 2 * (fix.accuracy ?? 0) }

    /// Grows the stay (or starts one), and parks the car once the stay is a stop.
    private func watchStay(_ t: inout DeviceTrack, _ fix: Fix, _ events: inout [TrackingEvent]) {
        guard var stay = t.stay else {
            t.stay = MotionFit(first: fix)
            return
        }
        if stay.distanceFromAnchor(to: fix) <= stayRadius(fix) {
            t.strayed = nil
        } else {
            var strayed = t.strayed ?? DeviceTrack.Crossing(featureID: nil, since: fix.time, fixes: 0)
            strayed.fixes += 1
            if confirmed(strayed, fix) {
                // Moved on: the next stay starts here.
                t.stay = MotionFit(first: fix)
                t.strayed = nil
                return
            }
            t.strayed = strayed
        }
        // A stray fix still counts: leaving out the fixes ahead of a slow mover would fit it slower.
        stay.add(fix)
        t.stay = stay
        guard stay.duration >= options.dwellSeconds else { return }
        guard stay.speed < options.parkedSpeed else {
            // Moving all along (traffic, a walk), or a stop whose run began while the car was
            // still coming: judged again over the next stretch, which starts here.
            t.stay = MotionFit(first: fix)
            return
        }
        guard t.dwelled, let feature = t.featureID, let visit = t.visit else { return }
        let anchor = stay.anchor
        let car = DeviceTrack.ParkedCar(
            latitude: anchor.latitude, longitude: anchor.longitude, featureID: feature, featureName: t.featureName,
            visit: visit, since: fix.time)
        t.car = car
        t.parked = true
        t.stay = nil
        t.strayed = nil
        t.excursion = nil
        t.onFoot = nil
        t.returning = nil
        var event = make(
            .parked, &t, position: .init(latitude: anchor.latitude, longitude: anchor.longitude), time: fix.time)
        let (answer, reminders) = parkAnswer(at: Point(x: anchor.longitude, y: anchor.latitude), time: fix.time)
        event.park = answer
        event.reminders = reminders
        events.append(event)
    }

    /// Follows the phone away from the parked car: back within its radius, on foot, or driving
    /// off (`left`).
    private func watchCar(
        _ t: inout DeviceTrack, _ car: DeviceTrack.ParkedCar, _ fix: Fix, _ events: inout [TrackingEvent]
    ) {
        let metric = LocalMetric(wgs84AtLatitude: car.latitude)
        let distance = metric.distance(
            Point(x: car.longitude, y: car.latitude), Point(x: fix.longitude, y: fix.latitude))
        if distance <= stayRadius(fix) {
            guard t.excursion != nil || t.onFoot == true else { return }
            var returning = t.returning ?? DeviceTrack.Crossing(featureID: nil, since: fix.time, fixes: 0)
            returning.fixes += 1
            if confirmed(returning, fix) {
                // Back at the car: the next way from it is judged afresh.
                t.excursion = nil
                t.onFoot = nil
                t.returning = nil
                return
            }
            t.returning = returning
        } else {
            t.returning = nil
        }
        guard t.onFoot != true else { return }
        guard var excursion = t.excursion else {
            // Out of the car's radius: the way from it starts here.
            t.excursion = MotionFit(first: fix)
            return
        }
        // A noisy fix back within the radius is still part of the way.
        excursion.add(fix)
        if excursion.duration >= options.moveOffSeconds, excursion.speed >= options.vehicleSpeed {
            events.append(
                make(
                    .left, &t, position: .init(latitude: fix.latitude, longitude: fix.longitude), time: fix.time,
                    car: car))
            t.car = nil
            t.parked = false
            t.excursion = nil
            t.onFoot = nil
            t.returning = nil
            t.stay = MotionFit(first: fix)
            t.strayed = nil
        } else if excursion.duration > options.departureWindowSeconds {
            t.excursion = nil
            t.onFoot = true
        } else {
            t.excursion = excursion
        }
    }
}
