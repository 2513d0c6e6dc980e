import GeoqCore

/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Arrays of `[x, y]` number pairs (GeoJSON rings and lines) become ``JSONValue/positions(_:)``
/// without a value per number: what makes a large GeoJSON file fast to read.
///
/// Why not `JSONSerialization`: on Linux (swift-corelibs-foundation, Swift 6.3) it does not round
/// numbers correctly — `-0.3743054743542415` comes back as `-0.37430547435424144` and
/// `4739734.4855332365` as `4739734.485533236` — so one vertex published in two files (a
/// shapefile and its GeoJSON export, a CSV's `geo_shape` and `geo_point_2d`) would differ; it
/// returns booleans as `NSNumber`s that also pass `as? Double`; and its errors give at best a
/// character offset ("Unexpected end of file" for a misspelt `tru`). Here numbers are correctly
/// rounded (``DecimalConversion``, else `Double(String)`), and every error has a line and column.
///
/// Limits: nesting deeper than ``maximumDepth`` is an error (no stack overflow on hostile input).
/// A leading UTF-8 BOM is skipped. Duplicate object keys: the last one wins.
public struct JSONParser {
    public struct SyntaxError: Error {
        /// 0-based byte offset.
        public var offset: Int
        /// 1-based line and column (column counted in bytes).
        public var line: Int
        public var column: Int
        public var message: String
    }

    static let maximumDepth = 512
    private static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// The document; valid only during ``parse(_:)`` (no bounds checks or reference counting
    /// on the hot path of a 200 MB file).
    private let bytes: UnsafeBufferPointer<UInt8>
    private let conversion = DecimalConversion()
    /// Where ``positions()`` collects a ring before copying it into an array of its exact size.
    private let scratch = PositionScratch()
    private var i = 0
    private var depth = 0
    /// An array inside the top-level object (a FeatureCollection's `features`) with more bytes
    /// than this left after it opens is parsed in two halves on two threads.
    private var splitFrom = Int.max

    /// Bytes left from which ``parse(_:)`` reads the top-level object's arrays on two threads.
    public static let splitThreshold = 16 << 20

    /// Parses one JSON document (any value at the top, then only whitespace).
    static func parse(_ document: [UInt8]) throws(SyntaxError) -> JSONValue {
        try document.withUnsafeBufferPointer { bytes in Result { () throws(SyntaxError) in try parse(bytes) } }.get()
    }

    /// Parses one JSON document held in `bytes`, without copying it. An array of the top-level
    /// object longer than `splittingFrom` bytes (a large FeatureCollection's features) is read in
    /// two halves at once; the value and any error are the same as when read in one piece.
    public static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, splittingFrom: Int = splitThreshold
    ) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.splitFrom = splittingFrom
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.i = 3 }
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        if parser.i < bytes.count {
            throw parser.error("unexpected \(parser.describeByte()) after the end of the JSON value")
        }
        return value
    }

    /// Parses one JSON document held in `bytes` that must be an object, handing each member to
    /// `member` in document order instead of building a dictionary (a later duplicate name
    /// comes later): for many small objects, such as the lines of NDJSON, where the dictionary
    /// was most of the cost. The same syntax and errors as ``parse(_:splittingFrom:)``.
    public static func parseMembers(
        _ bytes: UnsafeBufferPointer<UInt8>, _ member: (String, JSONValue) -> Void
    ) throws(SyntaxError) {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.i = 3 }
        parser.skipWhitespace()
        guard parser.i < bytes.count, bytes[parser.i] == UInt8(ascii: "{") else {
            throw parser.error("expected an object")
        }
        try parser.object(member)
        parser.skipWhitespace()
        if parser.i < bytes.count {
            throw parser.error("unexpected \(parser.describeByte()) after the end of the JSON value")
        }
    }

    /// A member's value as ``parseFlatMembers(_:_:)`` hands it over.
    public enum FlatValue {
        /// A string without escapes: its bytes between the quotes, valid during the call only.
        case string(UnsafeBufferPointer<UInt8>)
        case number(Double)
        case null
        /// Anything else (true, false, an object, an array), read and checked but not kept.
        case other
    }

    /// Reads one object whose member names and strings have no escapes, the common line of
    /// NDJSON, handing each member over with the bytes of its name (and of a string value)
    /// rather than as `String`s and ``JSONValue``s, which were most of the cost of such a line.
    /// False, maybe after some members were handed over, for anything else (an escape, a
    /// byte-order mark, not an object, any syntax error): ``parseMembers(_:_:)`` then reads the
    /// bytes, and names any error, as for every other object. Numbers and the other values are
    /// read by the same code as there, so a member comes out the same either way.
    public static func parseFlatMembers(
        _ bytes: UnsafeBufferPointer<UInt8>, _ member: (UnsafeBufferPointer<UInt8>, FlatValue) -> Void
    ) -> Bool {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        guard parser.i < bytes.count, bytes[parser.i] == UInt8(ascii: "{") else { return false }
        do throws(SyntaxError) {
            guard try parser.flatObject(member) else { return false }
        } catch {
            return false
        }
        parser.skipWhitespace()
        return parser.i == bytes.count
    }

    /// The object at `i`, as ``parseFlatMembers(_:_:)`` reads it; false at the first escape.
    private mutating func flatObject(
        _ member: (UnsafeBufferPointer<UInt8>, FlatValue) -> Void
    ) throws(SyntaxError) -> Bool {
        if try enterObject() { return true }
        while true {
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let name = try plainString() else { return false }
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return false }
            i += 1
            skipWhitespace()
            guard i < bytes.count else { return false }
            switch bytes[i] {
            case UInt8(ascii: "\""):
                guard let text = try plainString() else { return false }
                member(name, .string(text))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): member(name, .number(try number()))
            case UInt8(ascii: "n"):
                _ = try literal("null", .null)
                member(name, .null)
            default:
                _ = try value()
                member(name, .other)
            }
            skipWhitespace()
            guard i < bytes.count else { return false }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard bytes[i] == UInt8(ascii: "}") else { return false }
            i += 1
            depth -= 1
            return true
        }
    }

    /// The bytes of the string at `i` when it has no escape (nil, with `i` anywhere, when it
    /// has one); the same checks as ``string()``.
    private mutating func plainString() throws(SyntaxError) -> UnsafeBufferPointer<UInt8>? {
        i += 1
        let start = i
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return UnsafeBufferPointer(rebasing: bytes[start..<(i - 1)])
            }
            if c == UInt8(ascii: "\\") || c < 0x20 { return nil }
            i += 1
        }
        return nil
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: Values

    private mutating func value() throws(SyntaxError) -> JSONValue {
        guard i < bytes.count else { throw error("unexpected end of file: expected a value (the file is truncated?)") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default:
            throw error(
                "unexpected \(describeByte()): expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func object() throws(SyntaxError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        try object { members[$0] = $1 }
        return .object(members)
    }

    /// Enters the object that opens at `i`; true, with the object read, when it is empty.
    private mutating func enterObject() throws(SyntaxError) -> Bool {
        try enter()
        i += 1
        skipWhitespace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "}") else { return false }
        i += 1
        depth -= 1
        return true
    }

    /// Reads an object, handing each member over as it is read.
    private mutating func object(_ member: (String, JSONValue) -> Void) throws(SyntaxError) {
        let open = i
        if try enterObject() { return }
        while true {
            skipWhitespace()
            guard i < bytes.count else { throw unclosed("object", "}", from: open) }
            guard bytes[i] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeByte()): expected a member name in double quotes")
            }
            let key = try string()
            skipWhitespace()
            guard i < bytes.count else { throw unclosed("object", "}", from: open) }
            guard bytes[i] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeByte()): expected ':' after member name \"\(key)\"")
            }
            i += 1
            skipWhitespace()
            member(key, try value())
            skipWhitespace()
            guard i < bytes.count else { throw unclosed("object", "}", from: open) }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                depth -= 1
                return
            }
            throw error("unexpected \(describeByte()): expected ',' or '}' in the object opened at \(place(open))")
        }
    }

    private mutating func array() throws(SyntaxError) -> JSONValue {
        let open = i
        if let first = nextNonWhitespace(after: i), bytes[first] == UInt8(ascii: "["), let points = positions() {
            return .positions(points)
        }
        try enter()
        if depth == 2, bytes.count - open > splitFrom, let items = inHalves(open: open) {
            depth -= 1
            return .array(items)
        }
        i += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            guard i < bytes.count else { throw unclosed("array", "]", from: open) }
            items.append(try value())
            skipWhitespace()
            guard i < bytes.count else { throw unclosed("array", "]", from: open) }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                depth -= 1
                return .array(items)
            }
            throw error("unexpected \(describeByte()): expected ',' or ']' in the array opened at \(place(open))")
        }
    }

    /// The items of the array opened at `open`, read in two halves on two threads: from the
    /// start up to an item near the middle here, from that item to the closing `]` on another
    /// thread. Nil, with nothing consumed, when that fails in any way (the middle was not
    /// where an item of this array starts, or the JSON has an error): the array is then read
    /// in one piece, which reports any error at its place.
    private mutating func inHalves(open: Int) -> [JSONValue]? {
        // An object after a comma, past the middle: where an item may start.
        var split = open + (bytes.count - open) / 2
        while split < bytes.count {
            if bytes[split] == UInt8(ascii: "{") {
                var k = split - 1
                while k > open, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[k]) { k -= 1 }
                if bytes[k] == UInt8(ascii: ",") { break }
            }
            split += 1
        }
        guard split < bytes.count else { return nil }
        let document = SharedBytes(bytes: bytes), depth = depth, start = split
        let tail = Alongside {
            var parser = JSONParser(bytes: document.bytes)
            parser.depth = depth
            return parser.items(from: start, until: nil)
        }
        let head = items(from: open + 1, until: split).map(\.items)
        // Waited for in every case: the other thread reads the caller's bytes.
        let rest = tail.result()
        guard let head, let (rest, end) = rest else {
            i = open
            return nil
        }
        i = end
        return head + rest
    }

    /// The items from offset `start` up to the item that starts at offset `stop`, or with
    /// `stop` nil up to the array's closing `]`; and the offset where they end (`stop`, or
    /// after the `]`). Nil, with nothing consumed, unless the items end exactly there.
    private mutating func items(from start: Int, until stop: Int?) -> (items: [JSONValue], end: Int)? {
        let saved = (i, depth)
        i = start
        var items: [JSONValue] = []
        do throws(SyntaxError) {
            while true {
                skipWhitespace()
                items.append(try value())
                skipWhitespace()
                guard i < bytes.count else { break }
                if stop == nil, bytes[i] == UInt8(ascii: "]") { return (items, i + 1) }
                guard bytes[i] == UInt8(ascii: ",") else { break }
                i += 1
                guard let stop else { continue }
                skipWhitespace()
                if i == stop { return (items, i) }
                if i > stop { break }
            }
        } catch {}
        (i, depth) = saved
        return nil
    }

    /// The document's bytes, for the thread that reads an array's second half: read-only while
    /// both halves are read (the caller waits for that thread before going on).
    private struct SharedBytes: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
    }

    private mutating func string() throws(SyntaxError) -> String {
        let open = i
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: bytes[start..<i], as: UTF8.self)
                i += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw error("control character (byte 0x\(String(c, radix: 16))) inside a string; escape it") }
            i += 1
        }
        var buffer = [UInt8](bytes[start..<i])
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if c < 0x20 { throw error("control character (byte 0x\(String(c, radix: 16))) inside a string; escape it") }
            if c != UInt8(ascii: "\\") {
                buffer.append(c)
                i += 1
                continue
            }
            guard i + 1 < bytes.count else { break }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
                    bytes[i + 1] == UInt8(ascii: "u")
                {
                    i += 2
                    let low = try hex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        buffer.append(contentsOf: Array(String(JSONParser.replacement).utf8))
                        code = low
                    }
                }
                let scalar = Unicode.Scalar(code) ?? JSONParser.replacement
                buffer.append(contentsOf: Array(String(scalar).utf8))
            default:
                i -= 1
                throw error("invalid escape '\\\(describeByte())' in a string")
            }
        }
        throw unclosed("string", "\"", from: open)
    }

    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("unexpected end of file in a \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit \(describeByte()) in a \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, correctly rounded: plain decimals of up
    /// to 19 significant digits by ``DecimalConversion``, anything else by `Double(String)`.
    private mutating func number() throws(SyntaxError) -> Double {
        let start = i
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < bytes.count, bytes[i].isDigit else { throw error("expected a digit after '-'") }
        // The digits as one integer (wrapping: only used when they fit, see below).
        var digits: UInt64 = 0
        var integerDigits = 0
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, bytes[i].isDigit { throw error("numbers must not have leading zeros") }
        } else {
            integerDigits = digitRun(into: &digits)
        }
        var fractionDigits = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, bytes[i].isDigit else { throw error("expected a digit after the decimal point") }
            fractionDigits = digitRun(into: &digits)
        }
        var plain = true
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            plain = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count, bytes[i].isDigit else { throw error("expected a digit in the exponent") }
            while i < bytes.count, bytes[i].isDigit { i += 1 }
        }
        // Up to 19 digits always fit in a UInt64; more fit too when all but 19 are leading zeros
        // (`0.000…`), which add nothing to `digits`.
        if plain, integerDigits + fractionDigits <= 19 || significantDigits(from: start) <= 19,
            let d = conversion.double(digits: digits, fractionDigits: fractionDigits)
        {
            return negative ? -d : d
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let d = Double(text) else { throw error("'\(text)' is not a number") }
        return d
    }

    /// Reads the digits at `i` onto the end of `value` (`value × 10ⁿ + digits`, wrapping) and
    /// returns their count `n`: eight bytes at a time, as a coordinate's digits are read in one
    /// or two steps instead of one byte each.
    @inline(__always)
    private mutating func digitRun(into value: inout UInt64) -> Int {
        let begin = i
        while i &+ 8 <= bytes.count {
            let word = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + i).loadUnaligned(as: UInt64.self)
            // Digits become 0…9 in their byte; a byte of 10 or more has its high bit set in the
            // sum or in itself. A carry out of a byte only spoils the bytes after a non-digit.
            let values = UInt64(littleEndian: word) ^ 0x3030_3030_3030_3030
            let nonDigits = ((values &+ 0x7676_7676_7676_7676) | values) & 0x8080_8080_8080_8080
            let count = nonDigits == 0 ? 8 : nonDigits.trailingZeroBitCount &>> 3
            guard count > 0 else { break }
            // The first digit is the lowest byte: shifted up, the bytes after the run become
            // leading zeros of the eight-digit number.
            value = value &* conversion.smallPowers[count] &+ Self.eightDigits(values &<< ((8 &- count) &<< 3))
            i &+= count
            if count < 8 { return i - begin }
        }
        while i < bytes.count, bytes[i].isDigit {
            value = value &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
            i += 1
        }
        return i - begin
    }

    /// The number of eight digit values (0…9), one a byte, the first in the lowest byte.
    @inline(__always)
    private static func eightDigits(_ values: UInt64) -> UInt64 {
        // Pairs, then fours, then all eight, each step combining neighbours in one multiply.
        let pairs = values &* 10 &+ (values &>> 8)
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        let high: UInt64 = 100 + (1_000_000 << 32), low: UInt64 = 1 + (10_000 << 32)
        return ((pairs & mask) &* high &+ ((pairs &>> 16) & mask) &* low) &>> 32
    }

    /// The significant digits of the number read from `start` to `i` (its digits after any
    /// leading zeros, up to an exponent).
    private func significantDigits(from start: Int) -> Int {
        var count = 0
        for byte in bytes[start..<i] {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            if byte.isDigit, count > 0 || byte != UInt8(ascii: "0") { count += 1 }
        }
        return count
    }

    /// A whole array of `[x, y]` number pairs (a GeoJSON ring or line) read straight into
    /// points, starting at its `[`; nil, with nothing consumed, when the array is anything else
    /// (another shape, a third number, a number too large to be finite, a syntax error), so
    /// that the general parse reads it and reports any error exactly as before.
    private mutating func positions() -> [Point]? {
        let start = i
        guard depth + 2 <= JSONParser.maximumDepth else { return nil }
        var count = 0
        i += 1
        do throws(SyntaxError) {
            while true {
                skipWhitespace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "[") else { break }
                i += 1
                skipWhitespace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i].isDigit else { break }
                let x = try number()
                skipWhitespace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { break }
                i += 1
                skipWhitespace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i].isDigit else { break }
                let y = try number()
                skipWhitespace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "]"), x.isFinite, y.isFinite else { break }
                i += 1
                scratch.store(Point(x: x, y: y), at: count)
                count += 1
                skipWhitespace()
                guard i < bytes.count else { break }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if bytes[i] == UInt8(ascii: "]") {
                    i += 1
                    return scratch.array(count: count)
                }
                break
            }
        } catch {}
        i = start
        return nil
    }

    private mutating func literal(_ word: StaticString, _ result: JSONValue) throws(SyntaxError) -> JSONValue {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for (k, c) in expected.enumerated() {
            guard i + k < bytes.count, bytes[i + k] == c else {
                var end = i
                while end < bytes.count, end - i < 20, bytes[end].isLetter { end += 1 }
                let found = String(decoding: bytes[i..<max(end, min(i + 1, bytes.count))], as: UTF8.self)
                throw error("unexpected '\(found)': expected \(word)")
            }
        }
        i += expected.count
        return result
    }

    // MARK: Helpers

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
    }

    private func nextNonWhitespace(after offset: Int) -> Int? {
        var k = offset + 1
        while k < bytes.count {
            switch bytes[k] {
            case 0x20, 0x09, 0x0A, 0x0D: k += 1
            default: return k
            }
        }
        return nil
    }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private func describeByte() -> String {
        guard i < bytes.count else { return "end of file" }
        let c = bytes[i]
        if c >= 0x20, c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(String(c, radix: 16))"
    }

    private func lineAndColumn(_ offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        var k = 0
        let end = min(offset, bytes.count)
        while k < end {
            if bytes[k] == 0x0A {
                line += 1
                lineStart = k + 1
            } else if bytes[k] == 0x0D {
                if k + 1 < end, bytes[k + 1] == 0x0A { k += 1 }
                line += 1
                lineStart = k + 1
            }
            k += 1
        }
        return (line, offset - lineStart + 1)
    }

    private func place(_ offset: Int) -> String {
        let (line, column) = lineAndColumn(offset)
        return "line \(line), column \(column)"
    }

    private func error(_ message: String) -> SyntaxError {
        let (line, column) = lineAndColumn(i)
        var text = message
        if i >= bytes.count, !message.hasPrefix("unexpected end of file") {
            text = "unexpected end of file (the file is truncated?): " + message
        }
        return SyntaxError(offset: i, line: line, column: column, message: text)
    }

    private func unclosed(_ what: String, _ closer: String, from open: Int) -> SyntaxError {
        error(
            "unexpected end of file: the \(what) opened at \(place(open)) is not closed with '\(closer)' (the file is truncated?)"
        )
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    fileprivate var isLetter: Bool { (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z") }
}

/// Room for one ring's positions while it is read, kept by a parser from ring to ring: a ring
/// of a hundred thousand vertices is not grown (copied, and its pages taken anew) a dozen
/// times on its way to its array, only copied once, into an array of its exact size. Taken at
/// the first ring, so that a document without one (a CSV cell's JSON) allocates nothing.
private final class PositionScratch {
    private var base: UnsafeMutablePointer<Point>?
    private var capacity = 0

    deinit { base?.deallocate() }

    @inline(__always)
    func store(_ point: Point, at index: Int) {
        if index == capacity { grow() }
        (base.unsafelyUnwrapped + index).initialize(to: point)
    }

    /// The first `count` positions stored, as an array.
    func array(count: Int) -> [Point] {
        [Point](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base, let target = buffer.baseAddress { target.initialize(from: base, count: count) }
            initialized = count
        }
    }

    private func grow() {
        let larger = max(1024, capacity * 2)
        let room = UnsafeMutablePointer<Point>.allocate(capacity: larger)
        if let base {
            room.initialize(from: base, count: capacity)
            base.deallocate()
        }
        base = room
        capacity = larger
    }
}
