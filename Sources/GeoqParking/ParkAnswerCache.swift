import Foundation
import GeoqJSON
import GeoqSchedule
import GeoqTariffs
import Synchronization

/// The tariff part of park answers (the regulation now, the ticket, the max stay) kept for the
/// requests that share it: the service asks about "now" for every driver, and within a minute
/// drivers differ by their spot, not by their zone and ticket.
///
/// The tariff part depends on the point only through the zone, and on the instant only through
/// its minute: ``CityClock`` floors every instant to its minute before any rule is read, and
/// every time the answer writes is a whole minute. So the key is the instant's minute (UTC),
/// the zone, the ticket asked, the reminders and the language. A minute whose UTC offset is not
/// the same whole number of minutes throughout is never kept (no city's clock changes within a
/// minute since 1972, but the proof needs it).
///
/// One cache belongs to one city's tariffs and holds them; a reload makes a new snapshot and
/// with it new caches, so a changed tariff is never answered from an old one. Bounded: when it
/// holds ``capacity`` parts it starts again empty. Shared by every event loop under a lock held
/// only to look up or insert.
public final class ParkAnswerCache: Sendable {
    /// The tariffs every kept part was computed from.
    public let tariffs: CityTariffs
    /// The most parts kept at once.
    public let capacity: Int
    private let parts: Mutex<[Key: TariffPart]>
    /// The residents' lines by sector, zone and language: they depend on nothing else (not on
    /// the minute), and there are few (the layer's sectors, the city's zones, three languages).
    private let residents: Mutex<[ResidentsKey: ResidentsLines]>

    public init(tariffs: CityTariffs, capacity: Int = 4096) {
        precondition(capacity > 0, "a cache keeps at least one part")
        self.tariffs = tariffs
        self.capacity = capacity
        parts = Mutex([:])
        residents = Mutex([:])
    }

    /// How many parts are kept now.
    public var count: Int { parts.withLock { $0.count } }

    /// What a tariff part depends on.
    struct Key: Hashable, Sendable {
        /// Whole minutes since 1970-01-01 00:00 UTC, floored as ``CityClock`` floors.
        var minute: Int
        var zone: String?
        var request: TicketQuote.Request?
        var reminders: [Int]
        var language: Language

        init(time: Date, zone: String?, request: TicketQuote.Request?, reminders: [Int], language: Language) {
            minute = Self.minute(of: time)
            self.zone = zone
            self.request = request
            self.reminders = reminders
            self.language = language
        }

        static func minute(of time: Date) -> Int {
            let seconds = Int(time.timeIntervalSince1970.rounded(.down))
            return seconds >= 0 ? seconds / 60 : -((-seconds + 59) / 60)
        }
    }

    /// The part kept for `key`, else `compute`'s, kept when its minute allows. A refusal
    /// (`compute` throws) is not kept.
    func part(for key: Key, compute: () throws(TariffError) -> TariffPart) throws(TariffError) -> TariffPart {
        if let kept = parts.withLock({ $0[key] }) { return kept }
        let part = try compute()
        guard offsetIsWholeMinutesThroughout(key.minute) else { return part }
        parts.withLock { parts in
            if parts.count >= capacity { parts.removeAll(keepingCapacity: true) }
            parts[key] = part
        }
        return part
    }

    /// The city's UTC offset is one whole number of minutes from the minute's first second to its
    /// last: then every instant of it reads as the same wall-clock minute and writes the same
    /// ISO 8601 text.
    private func offsetIsWholeMinutesThroughout(_ minute: Int) -> Bool {
        let zone = tariffs.clock.timeZone
        let first = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(minute * 60)))
        let last = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(minute * 60 + 59)))
        return first == last && first % 60 == 0
    }

    struct ResidentsKey: Hashable, Sendable {
        var sector: String?
        var zone: String?
        var language: Language
    }

    /// The residents' lines kept for `key`, else `compute`'s, kept (at most ``capacity`` sets).
    func residents(for key: ResidentsKey, compute: () -> ResidentsLines) -> ResidentsLines {
        if let kept = residents.withLock({ $0[key] }) { return kept }
        let lines = compute()
        residents.withLock { residents in
            if residents.count >= capacity { residents.removeAll(keepingCapacity: true) }
            residents[key] = lines
        }
        return lines
    }
}

/// Who may park as a resident at a spot (``Messages/residents(sectorID:zone:tariffs:_:)``), as
/// text and as the answer's JSON writes each line.
final class ResidentsLines: Sendable {
    let lines: [String]
    /// The lines as elements of a JSON array; nil when there are none.
    let elements: JSONText.Fragment?

    init(_ lines: [String]) {
        self.lines = lines
        elements = JSONText.Fragment(elements: lines)
    }
}
