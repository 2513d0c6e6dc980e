import Foundation
import GeoqCore

/// A dBase III (and compatible) attribute table, the .dbf of a shapefile.
///
/// Layout: a 32-byte header (record count at byte 4, header length at 8, record length at 10,
/// language driver id at 29), 32-byte field descriptors up to a 0x0D terminator, then fixed-length
/// records whose first byte is `*` for a deleted record and a space otherwise.
///
/// Values: `C` -> string (trailing blanks removed; an empty field stays `""`); `N`/`F` -> number,
/// or null when blank or overflowed (`***`); `L` -> bool, or null for `?`/blank; `D` ->
/// `YYYY-MM-DD` string, or null when blank; `I` (4-byte integer) and `O` (8-byte double) ->
/// number; memo references (`M`, `G`, `B` in dBase III) -> null, with a warning; other types ->
/// their text.
///
/// Text encoding, in order: ``ReadOptions/dbfEncoding``; the .cpg file; a guess — UTF-8 when the
/// field names and records are well-formed UTF-8 and not plain ASCII (Natural Earth ships UTF-8
/// without a .cpg), else Windows-1252 when the language driver byte says so (0x03, 0x57:
/// Pamplona's files) and Latin-1 otherwise. Field names are decoded the same way (`AÑO`).
struct DBFTable {
    struct Field {
        var name: String
        var type: UInt8
        /// Offset of the field inside a record (the deletion flag is byte 0).
        var offset: Int
        var length: Int
        var decimals: Int
    }

    let file: String
    let fields: [Field]
    let recordCount: Int
    let headerLength: Int
    let recordLength: Int
    let encoding: DBFEncoding
    private let bytes: [UInt8]
    /// Every field name, each with a null value: each record's attributes start as a copy.
    private let template: [String: PropertyValue]
    /// Where each field's value sits in `template` and in every copy of it (a copy keeps the
    /// layout of its original): a record's values are stored there without hashing a name.
    private let slots: [Dictionary<String, PropertyValue>.Index]

    init(data: Data, file: String, cpg: String?, forced: DBFEncoding?, warnings: inout [String]) throws(FormatError) {
        self.file = file
        let bytes = [UInt8](data)
        self.bytes = bytes
        guard bytes.count >= 32 else {
            throw FormatError(
                .truncatedFile, file: file,
                message: "is \(bytes.count) bytes long; a .dbf header alone takes 32 (the file is truncated or empty)")
        }
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        recordCount = u32(4)
        headerLength = u16(8)
        recordLength = u16(10)
        guard headerLength >= 33, headerLength <= bytes.count else {
            throw FormatError(
                .truncatedFile, file: file, byteOffset: 8,
                message:
                    "header length \(headerLength) is impossible for a \(bytes.count)-byte file (not a dBase file, or truncated)"
            )
        }
        guard recordLength >= 1 else {
            throw FormatError(
                .invalidSyntax, file: file, byteOffset: 10, message: "record length is 0 (not a dBase file?)")
        }

        // Field descriptors, names kept as raw bytes until the encoding is known.
        var rawFields: [(name: ArraySlice<UInt8>, type: UInt8, offset: Int, length: Int, decimals: Int)] = []
        var offset = 32
        var recordOffset = 1
        while offset + 32 <= headerLength, bytes[offset] != 0x0D {
            let nameBytes = bytes[offset..<(offset + 11)]
            let end = nameBytes.firstIndex(of: 0) ?? nameBytes.endIndex
            let length = Int(bytes[offset + 16])
            rawFields.append((bytes[offset..<end], bytes[offset + 11], recordOffset, length, Int(bytes[offset + 17])))
            recordOffset += length
            offset += 32
        }
        guard recordOffset <= recordLength else {
            throw FormatError(
                .invalidSyntax, file: file,
                message:
                    "field lengths add up to \(recordOffset - 1) bytes but records are \(recordLength) bytes (corrupt field descriptors)"
            )
        }
        let available = (bytes.count - headerLength) / recordLength
        guard available >= recordCount else {
            throw FormatError(
                .truncatedFile, file: file, byteOffset: headerLength + available * recordLength,
                message:
                    "header announces \(recordCount) records of \(recordLength) bytes "
                    + "but the file holds only \(available) (the file is truncated)"
            )
        }

        // Encoding.
        // Names and records only: the descriptors' binary bytes (lengths such as 0xFE) are not text.
        let recordArea = bytes[headerLength..<(headerLength + recordCount * recordLength)]
        let nameBytes = rawFields.flatMap { Array($0.name) }
        let ldid = bytes[29]
        if let forced {
            encoding = forced
        } else if let cpg, let declared = DBFEncoding(cpg: cpg) {
            encoding = declared
        } else {
            if let cpg {
                warnings.append(
                    "\(file): .cpg says '\(cpg.trimmingWhitespace())', which is not a supported encoding; guessing")
            }
            // The names and the records apart: a sequence cut by the seam is no text either.
            let ascii = nameBytes.allSatisfy { $0 < 0x80 } && recordArea.allSatisfy { $0 < 0x80 }
            if ascii {
                encoding = .utf8
            } else if TextDecoding.isValidUTF8(nameBytes) && TextDecoding.isValidUTF8(recordArea) {
                encoding = .utf8
                warnings.append("\(file): no .cpg; the text is well-formed UTF-8, so it was read as UTF-8")
            } else {
                encoding = (ldid == 0x03 || ldid == 0x57) ? .windows1252 : .latin1
                if cpg == nil {
                    warnings.append(
                        "\(file): no .cpg; the text is not UTF-8, so it was read as \(encoding.rawValue) "
                            + "(language driver 0x\(String(ldid, radix: 16)))"
                    )
                }
            }
        }
        let encoding = self.encoding
        fields = rawFields.map {
            Field(
                name: TextDecoding.decode($0.name, as: encoding).trimmingWhitespace(), type: $0.type,
                offset: $0.offset, length: $0.length, decimals: $0.decimals)
        }
        var seen = Set<String>()
        for f in fields where !seen.insert(f.name).inserted {
            warnings.append("\(file): field name '\(f.name)' appears twice; the last value wins")
        }
        var template: [String: PropertyValue] = [:]
        template.reserveCapacity(fields.count)
        for field in fields { template[field.name] = .null }
        slots = fields.map { template.index(forKey: $0.name)! }
        self.template = template
        if fields.contains(where: { [UInt8(ascii: "M"), UInt8(ascii: "G"), UInt8(ascii: "B")].contains($0.type) }) {
            warnings.append("\(file): memo fields (M/G/B) are not read (their values are null)")
        }
    }

    var fieldNames: [String] { fields.map(\.name) }

    func isDeleted(_ index: Int) -> Bool {
        let o = headerLength + index * recordLength
        return o < bytes.count && bytes[o] == UInt8(ascii: "*")
    }

    /// The attributes of record `index` (0-based). Errors name the record as feature `index + 1`.
    func record(_ index: Int) throws(FormatError) -> [String: PropertyValue] {
        let base = headerLength + index * recordLength
        guard index >= 0, index < recordCount, base + recordLength <= bytes.count else {
            throw FormatError(
                .truncatedFile, file: file, featureNumber: index + 1, message: "record \(index + 1) is missing")
        }
        // A copy of the template, its values set where they sit: every record's dictionary
        // then lists the names in one order too (``PropertyTable`` relies on it for speed only).
        var values = template
        // Through buffer pointers: slices of the arrays and copies of the fields would each
        // retain and release (a third of the time on Natural Earth's 169 fields).
        try bytes.withUnsafeBufferPointer { bytes throws(FormatError) in
            try fields.withUnsafeBufferPointer { fields throws(FormatError) in
                for field in fields.indices {
                    let start = base + fields[field].offset
                    let raw = UnsafeBufferPointer(rebasing: bytes[start..<(start + fields[field].length)])
                    values.values[slots[field]] = try value(
                        raw, type: fields[field].type, field: field, record: index + 1)
                }
            }
        }
        return values
    }

    private func value(
        _ raw: UnsafeBufferPointer<UInt8>, type: UInt8, field: Int, record: Int
    ) throws(FormatError) -> PropertyValue {
        switch type {
        case UInt8(ascii: "C"):
            return .string(TextDecoding.decode(trimmedTrailing(raw), as: encoding))
        case UInt8(ascii: "N"), UInt8(ascii: "F"):
            let digits = trimmed(raw)
            if digits.allSatisfy({ $0 == UInt8(ascii: "*") }) { return .null }
            let text = String(decoding: digits, as: UTF8.self)
            guard let d = Double(text), d.isFinite else {
                throw FormatError(
                    .invalidValue, file: file, featureNumber: record, column: fields[field].name,
                    message: "'\(text)' is not a number (field type \(Character(Unicode.Scalar(type))))")
            }
            return .number(d)
        case UInt8(ascii: "L"):
            switch trimmed(raw).first {
            case UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: "Y"), UInt8(ascii: "y"): return .bool(true)
            case UInt8(ascii: "F"), UInt8(ascii: "f"), UInt8(ascii: "N"), UInt8(ascii: "n"): return .bool(false)
            default: return .null
            }
        case UInt8(ascii: "D"):
            let text = String(decoding: trimmed(raw), as: UTF8.self)
            if text.isEmpty || text == "00000000" { return .null }
            let digits = Array(text)
            if digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                return .string("\(String(digits[0..<4]))-\(String(digits[4..<6]))-\(String(digits[6..<8]))")
            }
            return .string(text)
        case UInt8(ascii: "I") where raw.count == 4:
            let v = Int32(
                bitPattern: UInt32(raw[0]) | UInt32(raw[1]) << 8 | UInt32(raw[2]) << 16 | UInt32(raw[3]) << 24)
            return .number(Double(v))
        case UInt8(ascii: "O") where raw.count == 8:
            var bits: UInt64 = 0
            for (k, b) in raw.enumerated() { bits |= UInt64(b) << (8 * UInt64(k)) }
            return .number(Double(bitPattern: bits))
        case UInt8(ascii: "M"), UInt8(ascii: "G"), UInt8(ascii: "B"):
            return .null
        default:
            return .string(TextDecoding.decode(trimmed(raw), as: encoding))
        }
    }

    private func trimmedTrailing(_ raw: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var end = raw.count
        while end > 0, raw[end - 1] == 0x20 || raw[end - 1] == 0 { end -= 1 }
        return UnsafeBufferPointer(rebasing: raw[0..<end])
    }

    private func trimmed(_ raw: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let tail = trimmedTrailing(raw)
        var start = 0
        while start < tail.count, tail[start] == 0x20 { start += 1 }
        return UnsafeBufferPointer(rebasing: tail[start...])
    }
}
