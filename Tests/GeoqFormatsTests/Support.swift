import Foundation
import GeoqCore
import GeoqFormats
import Synchronization
import Testing

/// Directories made by ``makeTemporaryDirectory(_:)``, removed when the test process exits.
private let temporaryDirectories = Mutex<[URL]>([])
private let removeTemporaryDirectoriesAtExit: Void = {
    atexit {
        for url in temporaryDirectories.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
    }
}()

/// A fresh directory under the system temporary directory, for copies and cut-down files;
/// removed at exit.
func makeTemporaryDirectory(_ label: String = #function) throws -> URL {
    _ = removeTemporaryDirectoriesAtExit
    let safe = label.filter { $0.isLetter || $0.isNumber }
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("geoq-formats-tests-\(safe)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    temporaryDirectories.withLock { $0.append(url) }
    return url
}

/// Writes `text` (UTF-8) to a new temporary file called `name`.
func writeTemporaryFile(_ text: String, name: String, label: String = #function) throws -> URL {
    try writeTemporaryFile(Data(text.utf8), name: name, label: label)
}

func writeTemporaryFile(_ data: Data, name: String, label: String = #function) throws -> URL {
    let url = try makeTemporaryDirectory(label).appendingPathComponent(name)
    try data.write(to: url)
    return url
}

/// Runs `body`, which must fail with a ``FormatError``, and returns the error.
func formatError(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws(FormatError) -> FeatureCollection
) -> FormatError? {
    do {
        let collection = try body()
        Issue.record(
            "expected a FormatError, read \(collection.features.count) features", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Checks that `error` has `code` and that its description names each of `parts`.
func expect(
    _ error: FormatError?, code: FormatError.Code, mentions parts: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let error else { return }
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    for part in parts {
        #expect(error.description.contains(part), "'\(part)' missing from: \(error)", sourceLocation: sourceLocation)
    }
}

extension Geometry {
    /// The positions of a polygon's or multipolygon's rings, for comparisons.
    var polygons: [Polygon] { areal?.polygons ?? [] }
}

/// Writes small shapefiles for tests (the layout of the ESRI technical description, 1998).
struct ShapefileFixture {
    enum Shape {
        case null
        case point(Double, Double)
        /// Parts as (x, y) lists, written in the given order and orientation.
        case polygon([[(Double, Double)]])
        case polyline([[(Double, Double)]])
        /// Any shape type with raw content after the type word.
        case raw(type: Int32, content: [UInt8])
    }

    var shapeType: Int32
    var shapes: [Shape]
    /// Fields (name, length) — names and values written in `encoding`; their dBase types are
    /// `types` (default: all `C`).
    var fields: [(name: String, length: Int)]
    var records: [(deleted: Bool, values: [String])]
    var encoding: String.Encoding = .utf8
    var prj: String? = nil
    var cpg: String? = nil
    var types: [Character]? = nil

    /// Writes `name`.shp/.shx/.dbf (+ .prj, .cpg) into `directory`; returns the .shp URL.
    func write(to directory: URL, name: String) throws -> URL {
        var contents: [[UInt8]] = []
        for shape in shapes {
            var c = [UInt8]()
            switch shape {
            case .null:
                c += le32(0)
            case .point(let x, let y):
                c += le32(1) + le64(x) + le64(y)
            case .polygon(let parts), .polyline(let parts):
                let type: Int32
                if case .polygon = shape { type = 5 } else { type = 3 }
                let all = parts.flatMap { $0 }
                c += le32(type)
                c += le64(all.map(\.0).min() ?? 0) + le64(all.map(\.1).min() ?? 0)
                c += le64(all.map(\.0).max() ?? 0) + le64(all.map(\.1).max() ?? 0)
                c += le32(Int32(parts.count)) + le32(Int32(all.count))
                var start = 0
                for part in parts {
                    c += le32(Int32(start))
                    start += part.count
                }
                for (x, y) in all { c += le64(x) + le64(y) }
            case .raw(let type, let content):
                c += le32(type) + content
            }
            contents.append(c)
        }
        var shp = [UInt8]()
        var shx = [UInt8]()
        let total = 100 + contents.reduce(0) { $0 + 8 + $1.count }
        shp += header(fileLength: total)
        shx += header(fileLength: 100 + 8 * contents.count)
        for (i, c) in contents.enumerated() {
            shx += be32(Int32(shp.count / 2)) + be32(Int32(c.count / 2))
            shp += be32(Int32(i + 1)) + be32(Int32(c.count / 2)) + c
        }
        let base = directory.appendingPathComponent(name)
        try Data(shp).write(to: base.appendingPathExtension("shp"))
        try Data(shx).write(to: base.appendingPathExtension("shx"))
        try Data(dbf()).write(to: base.appendingPathExtension("dbf"))
        if let prj { try Data(prj.utf8).write(to: base.appendingPathExtension("prj")) }
        if let cpg { try Data(cpg.utf8).write(to: base.appendingPathExtension("cpg")) }
        return base.appendingPathExtension("shp")
    }

    private func header(fileLength: Int) -> [UInt8] {
        var h = be32(9994) + [UInt8](repeating: 0, count: 20) + be32(Int32(fileLength / 2))
        h += le32(1000) + le32(shapeType) + [UInt8](repeating: 0, count: 64)
        return h
    }

    private func dbf() -> [UInt8] {
        let recordLength = 1 + fields.reduce(0) { $0 + $1.length }
        let headerLength = 32 + 32 * fields.count + 1
        var d: [UInt8] = [0x03, 124, 1, 1]
        d += le32(Int32(records.count))
        d += [
            UInt8(headerLength & 0xFF), UInt8(headerLength >> 8), UInt8(recordLength & 0xFF), UInt8(recordLength >> 8),
        ]
        d += [UInt8](repeating: 0, count: 20)
        for (k, field) in fields.enumerated() {
            var name = encode(field.name).prefix(10).map { $0 }
            name += [UInt8](repeating: 0, count: 11 - name.count)
            let type = types.map { $0[k].asciiValue ?? UInt8(ascii: "C") } ?? UInt8(ascii: "C")
            d += name + [type, 0, 0, 0, 0, UInt8(field.length), 0] + [UInt8](repeating: 0, count: 14)
        }
        d.append(0x0D)
        for record in records {
            d.append(record.deleted ? UInt8(ascii: "*") : UInt8(ascii: " "))
            for (field, value) in zip(fields, record.values) {
                var bytes = Array(encode(value).prefix(field.length))
                bytes += [UInt8](repeating: 0x20, count: field.length - bytes.count)
                d += bytes
            }
        }
        d.append(0x1A)
        return d
    }

    private func encode(_ s: String) -> [UInt8] {
        if encoding == .isoLatin1 { return s.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } }
        return Array(s.utf8)
    }
}

func le32(_ v: Int32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
func be32(_ v: Int32) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
func le64(_ v: Double) -> [UInt8] { withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
