import Foundation

/// Golden files: an answer compared byte for byte with a committed file, or written to it when
/// regenerating.
public enum Golden {
    /// Whether `GEOQ_UPDATE_GOLDEN=1` asks for the golden files to be written instead of compared.
    public static let updating = ProcessInfo.processInfo.environment["GEOQ_UPDATE_GOLDEN"] == "1"

    /// Compares `actual` with the file at `url` and returns what differs, naming the file and
    /// the first line that differs, or nil when they are the same bytes. When updating, writes
    /// `actual` to the file instead and returns nil.
    public static func mismatch(_ actual: Data, file url: URL) throws -> String? {
        if updating {
            try actual.write(to: url)
            return nil
        }
        guard let expected = FileManager.default.contents(atPath: url.path) else {
            return "golden file \(url.path) is missing; GEOQ_UPDATE_GOLDEN=1 writes it"
        }
        return expected == actual ? nil : difference(expected: expected, actual: actual, file: url.path)
    }

    /// The first differing line of two texts, as `-` (golden) and `+` (actual) excerpts around
    /// the first differing character (compact JSON answers are one long line).
    static func difference(expected: Data, actual: Data, file: String) -> String {
        let old = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let new = String(decoding: actual, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(old, new).enumerated().first { $1.0 != $1.1 }?.offset ?? min(old.count, new.count)
        let oldLine = line < old.count ? Array(old[line]) : []
        let newLine = line < new.count ? Array(new[line]) : []
        let column =
            zip(oldLine, newLine).enumerated().first { $1.0 != $1.1 }?.offset ?? min(oldLine.count, newLine.count)
        func excerpt(_ characters: [Character], present: Bool) -> String {
            guard present else { return "<end of text>" }
            let from = max(0, column - 60)
            let to = min(characters.count, column + 60)
            return (from > 0 ? "…" : "") + String(characters[from..<to]) + (to < characters.count ? "…" : "")
        }
        return """
            the answer differs from the golden file \(file) (\(expected.count) bytes golden, \(actual.count) now) \
            at line \(line + 1), column \(column + 1):
            - \(excerpt(oldLine, present: line < old.count))
            + \(excerpt(newLine, present: line < new.count))
            (GEOQ_UPDATE_GOLDEN=1 rewrites the golden files)
            """
    }
}

extension Golden {
    /// Replaces, in a JSON answer (pretty or compact), the values of the fields the run stamps
    /// from the clock (when a layer was imported or a feed refreshed or an item seen, and ages
    /// counted from then) and the "refreshed <date> (<age>)" phrase of a status line; the placeholders
    /// keep the rest of the answer byte for byte.
    public static func normalisingClock(_ text: String) -> String {
        var text = text.replacingOccurrences(
            of: #"("(importedAt|refreshedAt|seen|loadedAt)"\s*:\s*)"[^"]*""#, with: #"$1"<time of the run>""#,
            options: .regularExpression)
        text = text.replacingOccurrences(
            of: #"("(ageSeconds|uptimeSeconds)"\s*:\s*)[0-9.]+"#, with: "$1<age>", options: .regularExpression)
        return text.replacingOccurrences(
            of: #"refreshed \d{2}/\d{2}/\d{4} \d{2}:\d{2}:\d{2} \([^)]*\)"#,
            with: "refreshed <time of the run>", options: .regularExpression)
    }

    /// Replaces a path of this machine (a temporary directory, the data directory) by
    /// `placeholder`, as written plainly and as JSONEncoder escapes it.
    public static func replacingPath(_ path: String, with placeholder: String, in text: String) -> String {
        text.replacingOccurrences(of: path, with: placeholder)
            .replacingOccurrences(of: path.replacingOccurrences(of: "/", with: #"\/"#), with: placeholder)
    }
}
