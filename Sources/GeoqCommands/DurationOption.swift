import ArgumentParser
import Foundation

/// A duration on the command line: a number and a unit, `90s`, `5m`, `12h`, `30d` (a bare
/// number is seconds), as `--retain-events 30d` or `--expires 90d`.
package struct DurationOption: ExpressibleByArgument, Hashable {
    package var seconds: Double

    package init(seconds: Double) { self.seconds = seconds }

    package init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        let unit = text.last.flatMap { units[$0] }
        let number = Double(unit == nil ? text : String(text.dropLast()))
        guard let number, number.isFinite, number >= 0 else { return nil }
        seconds = number * (unit ?? 1)
    }

    package var duration: Duration { .milliseconds(Int64((seconds * 1000).rounded())) }

    package var defaultValueDescription: String {
        for (unit, size) in [("d", 86_400.0), ("h", 3_600), ("m", 60)]
        where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
            return "\(Int(seconds / size))\(unit)"
        }
        return "\(Int(seconds))s"
    }
}
