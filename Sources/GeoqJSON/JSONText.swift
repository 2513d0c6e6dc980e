/// JSON text written straight into bytes, the same bytes Foundation's `JSONEncoder` writes with
/// `[.sortedKeys, .withoutEscapingSlashes]` (the format of every geoq JSON answer).
///
/// For the answers written thousands of times a second (the service's which-sector answer):
/// `JSONEncoder` builds a tree of boxed values and sorts every object's keys on each call, which
/// cost more than the lookup itself. A type writes itself here with its keys already in sorted
/// order (``JSONWritable``); the tests hold the output to `JSONEncoder`'s, byte for byte.
///
/// Numbers are written as Swift's shortest round-trip `description`, without a trailing `.0`;
/// a number that is not finite (which `JSONEncoder` refuses) is written as `null`. Strings
/// escape `"`, `\` and the control characters, as `JSONEncoder` does.
public struct JSONText: Sendable {
    /// The text so far, UTF-8.
    public var bytes: [UInt8] { storage }
    @usableFromInline var storage: [UInt8] = []
    /// Invariant: true when the next key or array element needs a comma before it.
    @usableFromInline var needsComma = false

    @inlinable public init(reservingCapacity capacity: Int = 512) { storage.reserveCapacity(capacity) }

    /// The text of `value`.
    @inlinable public static func of(_ value: some JSONWritable) -> [UInt8] {
        var text = JSONText()
        value.write(to: &text)
        return text.storage
    }

    /// An object: `body` writes its members, in sorted key order.
    @inlinable public mutating func object(_ body: (inout JSONText) -> Void) {
        container(UInt8(ascii: "{"), UInt8(ascii: "}"), body)
    }

    /// An array: `body` writes its elements.
    @inlinable public mutating func array(_ body: (inout JSONText) -> Void) {
        container(UInt8(ascii: "["), UInt8(ascii: "]"), body)
    }

    @inlinable mutating func container(_ open: UInt8, _ close: UInt8, _ body: (inout JSONText) -> Void) {
        startValue()
        storage.append(open)
        needsComma = false
        body(&self)
        storage.append(close)
        needsComma = true
    }

    /// A member's key; its value is written next.
    @inlinable public mutating func key(_ name: String) {
        startValue()
        appendQuoted(name)
        storage.append(UInt8(ascii: ":"))
        needsComma = false
    }

    @inlinable public mutating func string(_ value: String) {
        startValue()
        appendQuoted(value)
        needsComma = true
    }

    @inlinable public mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        startValue()
        // The ".0" of a whole number looked for in the bytes written (the text is ASCII):
        // `hasSuffix` on the String compares characters, a measurable part of every number.
        let start = storage.count
        storage.append(contentsOf: value.description.utf8)
        let end = storage.count
        if end - start >= 2, storage[end - 1] == UInt8(ascii: "0"), storage[end - 2] == UInt8(ascii: ".") {
            storage.removeLast(2)
        }
        needsComma = true
    }

    @inlinable public mutating func number(_ value: Int) {
        startValue()
        storage.append(contentsOf: value.description.utf8)
        needsComma = true
    }

    @inlinable public mutating func bool(_ value: Bool) {
        startValue()
        storage.append(contentsOf: value ? "true".utf8 : "false".utf8)
        needsComma = true
    }

    @inlinable public mutating func null() {
        startValue()
        storage.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// A member, left out when `value` is nil (as a synthesized `Encodable` does).
    @inlinable public mutating func member<Value>(
        _ name: String, _ value: Value?, _ write: (inout JSONText, Value) -> Void
    ) {
        guard let value else { return }
        key(name)
        write(&self, value)
    }

    @inlinable mutating func startValue() {
        if needsComma { storage.append(UInt8(ascii: ",")) }
    }

    @usableFromInline mutating func appendQuoted(_ text: String) {
        storage.append(UInt8(ascii: "\""))
        // Most text needs no escape at all: scanned and copied in one go. (A native string is
        // contiguous UTF-8; `contains(where:)` on its `utf8` view cost more than the copy.)
        let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            storage.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            storage.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): storage.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): storage.append(contentsOf: #"\\"#.utf8)
            case 0x0A: storage.append(contentsOf: #"\n"#.utf8)
            case 0x0D: storage.append(contentsOf: #"\r"#.utf8)
            case 0x09: storage.append(contentsOf: #"\t"#.utf8)
            case 0x08: storage.append(contentsOf: #"\b"#.utf8)
            case 0x0C: storage.append(contentsOf: #"\f"#.utf8)
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                storage.append(contentsOf: #"\u00"#.utf8)
                storage.append(hex[Int(byte >> 4)])
                storage.append(hex[Int(byte & 0x0F)])
            default: storage.append(byte)
            }
        }
        storage.append(UInt8(ascii: "\""))
    }
}

/// A value that writes its own JSON text (keys in sorted order, nil members left out), the same
/// as its `Encodable` conformance would through `JSONEncoder`.
public protocol JSONWritable {
    func write(to json: inout JSONText)
}
