/// An RFC 4180 parser over UTF-8 bytes: fields separated by a delimiter byte, records by CRLF,
/// LF or CR; a field in double quotes may hold the delimiter, line breaks and `""` (one quote).
/// Blank lines between records are skipped. Each record remembers the 1-based line it starts on,
/// counting the line breaks inside quoted fields.
enum CSVParser {
    struct Record {
        var fields: [String]
        /// 1-based line of the record's first byte.
        var line: Int
    }

    struct SyntaxError: Error {
        var line: Int
        /// 0-based index of the field concerned.
        var fieldIndex: Int
        var message: String
    }

    static func records(_ bytes: [UInt8], delimiter: UInt8 = UInt8(ascii: ";")) throws(SyntaxError) -> [Record] {
        let quote = UInt8(ascii: "\""), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        let n = bytes.count
        var i = 0
        var line = 1
        var records: [Record] = []
        while i < n {
            // Skip blank lines.
            if bytes[i] == cr || bytes[i] == lf {
                if bytes[i] == cr, i + 1 < n, bytes[i + 1] == lf { i += 1 }
                i += 1
                line += 1
                continue
            }
            let recordLine = line
            var fields: [String] = []
            while true {
                if i < n, bytes[i] == quote {
                    let openLine = line
                    i += 1
                    var buffer: [UInt8] = []
                    var runStart = i
                    while true {
                        guard i < n else {
                            throw SyntaxError(
                                line: openLine, fieldIndex: fields.count,
                                message:
                                    "a quoted field starting on this line is never closed (the file ends inside it; a '\"' is missing)"
                            )
                        }
                        let c = bytes[i]
                        if c == quote {
                            buffer.append(contentsOf: bytes[runStart..<i])
                            if i + 1 < n, bytes[i + 1] == quote {
                                buffer.append(quote)
                                i += 2
                                runStart = i
                                continue
                            }
                            i += 1
                            break
                        }
                        if c == cr {
                            line += 1
                            if i + 1 < n, bytes[i + 1] == lf { i += 1 }
                        } else if c == lf {
                            line += 1
                        }
                        i += 1
                    }
                    if i < n, bytes[i] != delimiter, bytes[i] != cr, bytes[i] != lf {
                        throw SyntaxError(
                            line: line, fieldIndex: fields.count,
                            message:
                                "unexpected character after the closing quote of a field "
                                + "(a quote inside a quoted field must be doubled: \"\")"
                        )
                    }
                    fields.append(String(decoding: buffer, as: UTF8.self))
                } else {
                    let start = i
                    while i < n, bytes[i] != delimiter, bytes[i] != cr, bytes[i] != lf { i += 1 }
                    fields.append(String(decoding: bytes[start..<i], as: UTF8.self))
                }
                if i < n, bytes[i] == delimiter {
                    i += 1
                    continue
                }
                // End of record: a line break or the end of the file.
                if i < n {
                    if bytes[i] == cr, i + 1 < n, bytes[i + 1] == lf { i += 1 }
                    i += 1
                    line += 1
                }
                break
            }
            records.append(Record(fields: fields, line: recordLine))
        }
        return records
    }
}
