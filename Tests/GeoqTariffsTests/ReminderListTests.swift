import GeoqTariffs
import Testing

/// The one reading of a reminder list, shared by `--reminder` and `reminder=`.
@Suite struct ReminderListTests {
    @Test func wholePositiveMinutesSeparatedByCommas() throws {
        #expect(try TicketQuote.reminderMinutes("5,10,15").get() == [5, 10, 15])
        #expect(try TicketQuote.reminderMinutes(" 5 , 10").get() == [5, 10])
        #expect(try TicketQuote.reminderMinutes("30").get() == [30])
    }

    @Test(arguments: [
        ("5,,10", ""), ("0", "0"), ("-5", "-5"), ("5,ten", "ten"), ("1.5", "1.5"), ("9999999", "9999999"),
    ])
    func theFirstBadItemIsNamed(text: String, item: String) {
        #expect(throws: TicketQuote.BadReminder(item: item)) { try TicketQuote.reminderMinutes(text).get() }
    }
}
