import Foundation

/// How a track is kept in the store: a compact binary record, written for every device a batch
/// touches. JSON through Foundation's encoder and decoder was most of the CPU time of a batch
/// over HTTP, and three times the bytes.
///
/// The record: the format byte 1, a 32-bit mask of the optional fields present, then the fields
/// in their declaration order (doubles and dates as the 8 bytes of their IEEE value, little
/// endian, dates in seconds since 2001 as `Date` holds them, so they come back bit for bit;
/// strings as a varint length and UTF-8; counts as varints). A stored value starting with `{`
/// is a track written as JSON by an older geoq, read as such.
extension DeviceTrack {
    /// The record of this track.
    public var storage: [UInt8] {
        var out = TrackRecordWriter()
        out.byte(Self.recordFormat)
        // Bit n for the n-th optional field, without an array of flags: this runs for every
        // track a batch touches.
        var present = PresenceMask()
        present.next(lastAccuracy != nil)
        present.next(featureID != nil)
        present.next(featureName != nil)
        present.next(visit != nil)
        present.next(enteredAt != nil)
        present.next(exitedID != nil)
        present.next(leaving != nil)
        present.next(entering != nil)
        present.next(stay != nil)
        present.next(strayed != nil)
        present.next(car != nil)
        present.next(excursion != nil)
        present.next(onFoot != nil)
        present.next(returning != nil)
        out.word(present.bits)
        out.string(device)
        out.string(layer)
        out.date(lastTime)
        out.double(lastLatitude)
        out.double(lastLongitude)
        if let lastAccuracy { out.double(lastAccuracy) }
        if let featureID { out.string(featureID) }
        if let featureName { out.string(featureName) }
        if let visit { out.string(visit) }
        if let enteredAt { out.date(enteredAt) }
        if let exitedID { out.string(exitedID) }
        if let leaving { out.crossing(leaving) }
        if let entering { out.crossing(entering) }
        out.byte(dwelled ? 1 : 0)
        if let stay { stay.write(to: &out) }
        if let strayed { out.crossing(strayed) }
        if let car {
            out.double(car.latitude)
            out.double(car.longitude)
            out.string(car.featureID)
            out.byte(car.featureName == nil ? 0 : 1)
            if let name = car.featureName { out.string(name) }
            out.string(car.visit)
            out.date(car.since)
        }
        if let excursion { excursion.write(to: &out) }
        if let onFoot { out.byte(onFoot ? 1 : 0) }
        if let returning { out.crossing(returning) }
        out.byte(parked ? 1 : 0)
        out.varint(UInt64(max(0, nextSequence)))
        return out.bytes
    }

    /// A track from its stored value: a record, or the JSON an older geoq wrote.
    public init(storage: [UInt8]) throws {
        if storage.first == UInt8(ascii: "{") {
            self = try JSONDecoder().decode(DeviceTrack.self, from: Data(storage))
            return
        }
        var input = TrackRecordReader(bytes: storage)
        guard try input.byte() == Self.recordFormat else {
            throw TrackRecordError(message: "a stored track of an unknown format (byte \(storage.first ?? 0))")
        }
        let present = try input.word()
        func has(_ bit: UInt32) -> Bool { present & (1 << bit) != 0 }
        let device = try input.string()
        let layer = try input.string()
        let lastTime = try input.date()
        let first = Fix(
            device: device, time: lastTime, latitude: try input.double(), longitude: try input.double(),
            accuracy: has(0) ? try input.double() : nil)
        self.init(device: device, layer: layer, first: first)
        featureID = has(1) ? try input.string() : nil
        featureName = has(2) ? try input.string() : nil
        visit = has(3) ? try input.string() : nil
        enteredAt = has(4) ? try input.date() : nil
        exitedID = has(5) ? try input.string() : nil
        leaving = has(6) ? try input.crossing() : nil
        entering = has(7) ? try input.crossing() : nil
        dwelled = try input.byte() != 0
        stay = has(8) ? try MotionFit(from: &input) : nil
        strayed = has(9) ? try input.crossing() : nil
        if has(10) {
            car = ParkedCar(
                latitude: try input.double(), longitude: try input.double(), featureID: try input.string(),
                featureName: try input.byte() != 0 ? try input.string() : nil, visit: try input.string(),
                since: try input.date())
        }
        excursion = has(11) ? try MotionFit(from: &input) : nil
        onFoot = has(12) ? try input.byte() != 0 : nil
        returning = has(13) ? try input.crossing() : nil
        parked = try input.byte() != 0
        nextSequence = Int(clamping: try input.varint())
        guard input.isAtEnd else { throw TrackRecordError(message: "bytes after the end of a stored track") }
    }

    static let recordFormat: UInt8 = 1
}

/// A stored track that cannot be read.
public struct TrackRecordError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// The mask of the optional fields a record holds, bit by bit in their order.
struct PresenceMask {
    private(set) var bits: UInt32 = 0
    private var bit: UInt32 = 1

    mutating func next(_ isPresent: Bool) {
        if isPresent { bits |= bit }
        bit <<= 1
    }
}

/// Writes the fields of a track record.
struct TrackRecordWriter {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(160) }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func word(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func date(_ value: Date) { double(value.timeIntervalSinceReferenceDate) }

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func string(_ value: String) {
        let utf8 = value.utf8
        varint(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    mutating func crossing(_ value: DeviceTrack.Crossing) {
        byte(value.featureID == nil ? 0 : 1)
        if let id = value.featureID { string(id) }
        date(value.since)
        varint(UInt64(max(0, value.fixes)))
    }
}

/// Reads the fields of a track record; every read checks that the bytes are there.
struct TrackRecordReader {
    let bytes: [UInt8]
    private var at = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { at == bytes.count }

    private mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count - at >= count else {
            throw TrackRecordError(message: "a stored track is cut short (byte \(at) of \(bytes.count))")
        }
        defer { at += count }
        return bytes[at..<(at + count)]
    }

    mutating func byte() throws -> UInt8 { try take(1).first! }

    mutating func word() throws -> UInt32 {
        try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func double() throws -> Double {
        Double(bitPattern: try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) })
    }

    mutating func date() throws -> Date { Date(timeIntervalSinceReferenceDate: try double()) }

    mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 7) {
            let b = try byte()
            value |= UInt64(b & 0x7F) << UInt64(shift)
            if b < 0x80 { return value }
        }
        throw TrackRecordError(message: "a stored track has a number of more than 64 bits")
    }

    mutating func string() throws -> String {
        let count = try varint()
        guard count <= UInt64(bytes.count) else { throw TrackRecordError(message: "a stored track is cut short") }
        return String(decoding: try take(Int(count)), as: UTF8.self)
    }

    mutating func crossing() throws -> DeviceTrack.Crossing {
        let featureID = try byte() != 0 ? try string() : nil
        return DeviceTrack.Crossing(featureID: featureID, since: try date(), fixes: Int(clamping: try varint()))
    }
}
