import Foundation
import GeoqCore
import GeoqSchedule
import GeoqTariffs

/// What a park request asks: where and when, in which zone if the caller says, which ticket to
/// price if any, which reminders before it runs out, and in which language to answer. The
/// arguments of ``ParkQuery/answer(at:time:zoneID:request:reminders:language:)`` as one value.
public struct ParkQuestion: Sendable {
    public var point: Point
    public var time: Date
    public var zone: String?
    public var request: TicketQuote.Request?
    public var reminders: [Int]
    public var language: Language

    public init(
        point: Point, time: Date, zone: String?, request: TicketQuote.Request?, reminders: [Int], language: Language
    ) {
        self.point = point
        self.time = time
        self.zone = zone
        self.request = request
        self.reminders = reminders
        self.language = language
    }
}
