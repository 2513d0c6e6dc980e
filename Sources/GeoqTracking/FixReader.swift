import Foundation
import GeoqFormats
import GeoqSchedule

/// Reads fixes from a request body or a file: a JSON array of fix objects, one fix object, or
/// NDJSON (one object per line). A bad fix gets a ``FixError`` naming its line (NDJSON) or its
/// index (array, 0-based) and the field; the other fixes are read all the same.
public enum FixReader {
    /// The fixes that were good, in input order, and one error per bad fix.
    public struct Batch: Hashable, Sendable {
        public var fixes: [Fix]
        public var errors: [FixError]
    }

    /// What a reader takes beyond a well-formed fix: the service's bounds (a device id it can
    /// keep, a time it will not be locked out by); a file replayed with `geoq track` has none.
    public struct Bounds: Hashable, Sendable {
        /// The longest device id, in bytes of UTF-8.
        public var maxDeviceIDLength: Int?
        /// The earliest and the latest time a fix may have.
        public var earliest: Date?
        public var latest: Date?

        public init(maxDeviceIDLength: Int? = nil, earliest: Date? = nil, latest: Date? = nil) {
            self.maxDeviceIDLength = maxDeviceIDLength
            self.earliest = earliest
            self.latest = latest
        }

        public static let none = Bounds()
    }

    public static func read(_ data: Data, within bounds: Bounds = .none) -> Batch {
        data.withUnsafeBytes { raw in read(raw, within: bounds) }
    }

    /// The same, from bytes held elsewhere (a request's buffer), without copying them.
    public static func read(_ raw: UnsafeRawBufferPointer, within bounds: Bounds = .none) -> Batch {
        read(raw.bindMemory(to: UInt8.self), within: bounds)
    }

    /// Read with geoq's JSON parser (strict, correctly rounded numbers), a line at a time for
    /// NDJSON without copying it: Foundation's decoder, a decoder per line, was most of the cost
    /// of a batch.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, within bounds: Bounds) -> Batch {
        let first = bytes.first { !isBlank($0) }
        var batch = Batch(fixes: [], errors: [])
        if first == UInt8(ascii: "[") {
            guard case .array(let array)? = try? JSONParser.parse(bytes) else {
                batch.errors.append(
                    FixError(line: nil, index: nil, field: nil, message: "the body is not a JSON array"))
                return batch
            }
            for (i, item) in array.enumerated() {
                collect(item, line: nil, index: i, bounds: bounds, into: &batch)
            }
            return batch
        }
        // One object, possibly spread over several lines, before NDJSON.
        if first == UInt8(ascii: "{"), let object = try? JSONParser.parse(bytes) {
            collect(object, line: nil, index: 0, bounds: bounds, into: &batch)
            return batch
        }
        var lineNumber = 0
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            lineNumber += 1
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            start = end + 1
            if line.allSatisfy(isBlank) { continue }
            var fields = Fields()
            if !JSONParser.parseFlatMembers(line, { fields.take($0, $1) }) {
                fields = Fields()
                do throws(JSONParser.SyntaxError) { try JSONParser.parseMembers(line) { fields.take($0, $1) } } catch {
                    batch.errors.append(
                        FixError(line: lineNumber, index: nil, field: nil, message: "not a JSON object"))
                    continue
                }
            }
            collect(fields, line: lineNumber, index: nil, bounds: bounds, into: &batch)
        }
        return batch
    }

    /// JSON's whitespace.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func collect(_ item: JSONValue, line: Int?, index: Int?, bounds: Bounds, into batch: inout Batch) {
        guard case .object(let object) = item else {
            batch.errors.append(FixError(line: line, index: index, field: nil, message: "not a JSON object"))
            return
        }
        var fields = Fields()
        for (name, value) in object { fields.take(name, value) }
        collect(fields, line: line, index: index, bounds: bounds, into: &batch)
    }

    /// The members of a fix object that a fix is made of (the others are ignored), as read by
    /// either parser: valid while the bytes read are.
    struct Fields {
        var device, time, lat, lon, accuracy, speed: Member?

        enum Member {
            case text(String)
            /// A string's bytes, without escapes.
            case bytes(UnsafeBufferPointer<UInt8>)
            case number(Double)
            case null
            case other

            var text: String? {
                switch self {
                case .text(let text): text
                case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
                default: nil
                }
            }
        }

        mutating func take(_ name: String, _ value: JSONValue) {
            let member: Member =
                switch value {
                case .string(let text): .text(text)
                case .number(let n): .number(n)
                case .null: .null
                default: .other
                }
            var name = name
            name.withUTF8 { put(member, named: $0) }
        }

        mutating func take(_ name: UnsafeBufferPointer<UInt8>, _ value: JSONParser.FlatValue) {
            let member: Member =
                switch value {
                case .string(let bytes): .bytes(bytes)
                case .number(let n): .number(n)
                case .null: .null
                case .other: .other
                }
            put(member, named: name)
        }

        /// Keeps `member` in its field when `name` is one of a fix's.
        private mutating func put(_ member: Member, named name: UnsafeBufferPointer<UInt8>) {
            switch name.count {
            case 3:
                if name.elementsEqual("lat".utf8) {
                    lat = member
                } else if name.elementsEqual("lon".utf8) {
                    lon = member
                }
            case 4: if name.elementsEqual("time".utf8) { time = member }
            case 5: if name.elementsEqual("speed".utf8) { speed = member }
            case 6: if name.elementsEqual("device".utf8) { device = member }
            case 8: if name.elementsEqual("accuracy".utf8) { accuracy = member }
            default: break
            }
        }
    }

    private static func collect(_ fields: Fields, line: Int?, index: Int?, bounds: Bounds, into batch: inout Batch) {
        switch fix(from: fields).flatMap({ fix in outside(bounds, fix).map { .failure($0) } ?? .success(fix) }) {
        case .success(let fix): batch.fixes.append(fix)
        case .failure(let problem):
            batch.errors.append(
                FixError(line: line, index: index, field: problem.field, message: problem.message, kind: problem.kind))
        }
    }

    struct Problem: Error {
        var field: String?
        var message: String
        var kind = FixError.Kind.malformed
        var key: Fix.CodingKeys { Fix.CodingKeys(rawValue: field ?? "") ?? .device }
    }

    static func fix(from fields: Fields) -> Result<Fix, Problem> {
        guard let device = fields.device?.text, !device.isEmpty else {
            return .failure(Problem(field: "device", message: "device is missing or not a non-empty string"))
        }
        let time: Date?
        switch fields.time {
        case .bytes(let bytes)?: time = InternetTime.parse(utf8: bytes)
        case .text(let text)?: time = InternetTime.parse(text)
        default: return .failure(Problem(field: "time", message: "time is missing or not a string"))
        }
        guard let time else {
            let text = fields.time?.text ?? ""
            return .failure(
                Problem(field: "time", message: "time '\(text)' is not ISO 8601 with an offset (2026-03-02T09:00:00Z)"))
        }
        func number(_ value: Fields.Member?, _ key: String, required: Bool) -> Result<Double?, Problem> {
            switch value {
            case nil, .null?:
                return required ? .failure(Problem(field: key, message: "\(key) is missing")) : .success(nil)
            case .number(let n)?: return .success(n)
            default: return .failure(Problem(field: key, message: "\(key) is not a number"))
            }
        }
        let values: (Double?, Double?, Double?, Double?)
        do {
            values = (
                try number(fields.lat, "lat", required: true).get(),
                try number(fields.lon, "lon", required: true).get(),
                try number(fields.accuracy, "accuracy", required: false).get(),
                try number(fields.speed, "speed", required: false).get()
            )
        } catch { return .failure(error) }
        let fix = Fix(
            device: device, time: time, latitude: values.0!, longitude: values.1!, accuracy: values.2, speed: values.3)
        if let problem = problem(in: fix) { return .failure(problem) }
        return .success(fix)
    }

    /// Why `fix` is outside `bounds`, if it is.
    static func outside(_ bounds: Bounds, _ fix: Fix) -> Problem? {
        if let longest = bounds.maxDeviceIDLength, fix.device.utf8.count > longest {
            return Problem(field: "device", message: "device is longer than \(longest) bytes", kind: .deviceTooLong)
        }
        if let latest = bounds.latest, fix.time > latest {
            return Problem(
                field: "time",
                message:
                    "time \(FixTime.utc(fix.time)) is later than \(FixTime.utc(latest)) (the clock's skew allowed)",
                kind: .future)
        }
        if let earliest = bounds.earliest, fix.time < earliest {
            return Problem(
                field: "time",
                message: "time \(FixTime.utc(fix.time)) is older than the retention (\(FixTime.utc(earliest)))",
                kind: .pastRetention)
        }
        return nil
    }

    /// The first range violated by `fix`, if any.
    static func problem(in fix: Fix) -> Problem? {
        if fix.device.isEmpty { return Problem(field: "device", message: "device is empty") }
        if !(fix.latitude.isFinite && (-90...90).contains(fix.latitude)) {
            return Problem(field: "lat", message: "lat \(fix.latitude) is outside [-90, 90]")
        }
        if !(fix.longitude.isFinite && (-180...180).contains(fix.longitude)) {
            return Problem(field: "lon", message: "lon \(fix.longitude) is outside [-180, 180]")
        }
        if let a = fix.accuracy, !(a.isFinite && a >= 0) {
            return Problem(field: "accuracy", message: "accuracy \(a) is not a number of metres ≥ 0")
        }
        if let v = fix.speed, !(v.isFinite && v >= 0) {
            return Problem(field: "speed", message: "speed \(v) is not a number of m/s ≥ 0")
        }
        return nil
    }
}

/// A fix that could not be read: where (NDJSON line, 1-based, or array index, 0-based), which
/// field, and why.
public struct FixError: Codable, Hashable, Sendable, CustomStringConvertible {
    public var line: Int?
    public var index: Int?
    /// `device`, `time`, `lat`, `lon`, `accuracy`, `speed`; nil when the item is not an object.
    public var field: String?
    public var message: String
    /// What is wrong with it, for counting.
    public var kind: Kind

    public enum Kind: String, Codable, Hashable, Sendable {
        /// Not a fix: a field missing, not a number, out of range.
        case malformed
        /// Dated further ahead than the clock's skew allows.
        case future
        /// Dated before the retention.
        case pastRetention
        /// A device id longer than the service keeps.
        case deviceTooLong
    }

    public init(line: Int?, index: Int?, field: String?, message: String, kind: Kind = .malformed) {
        self.line = line
        self.index = index
        self.field = field
        self.message = message
        self.kind = kind
    }

    public var description: String {
        let place = line.map { "line \($0)" } ?? index.map { "fix \($0)" } ?? "body"
        return "\(place): \(message)"
    }
}
