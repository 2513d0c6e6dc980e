import Foundation
import GeoqCore
import GeoqSchedule

extension Layer {
    /// This layer as a time-zone layer whose features hold their IANA zone id in `field`:
    /// its which-sector answers then carry the local time (``SectorLookup/answer(for:language:at:swapCandidates:)``),
    /// and it never serves as a "did you swap latitude and longitude?" candidate (it covers
    /// the whole Earth, so every swapped position would be inside it).
    public func marking(timeZoneField field: String) -> Layer {
        var layer = self
        layer.timeZones = FeatureTimeZones(features: features, field: field)
        return layer
    }

    /// Whether answers from this layer carry the local time.
    public var isTimeZoneLayer: Bool { timeZones != nil }
}

extension SectorLookup {
    /// ``answer(for:language:swapCandidates:)``, with, on a time-zone layer, the zone of the
    /// first feature that covers the point and the local time there at `instant`.
    public func answer(
        for point: Point, language: Language = .en, at instant: Date, swapCandidates: () -> [Layer] = { [] }
    ) -> SectorAnswer {
        var answer = answer(for: point, language: language, swapCandidates: swapCandidates)
        answer.timeZone = localTime(of: answer, at: instant)
        return answer
    }

    /// The local time at `instant` in the zone of the first feature that covers the answer's
    /// point; nil on a layer that is not a time-zone layer, or for a point in no zone.
    public func localTime(of answer: SectorAnswer, at instant: Date) -> LocalTime? {
        guard let zones = layer.timeZones, let first = answer.inside.first, let item = zones.items[first.id]
        else { return nil }
        return LocalTime(zone: zones.ids[item], timeZone: zones.zones[item], at: instant)
    }
}
