import Foundation
import GeoqCore

/// Reads CSV exports of opendatasoft portals (València, and many other cities).
///
/// - Format: `;`-separated, UTF-8 (a leading BOM is skipped), RFC 4180 quoting (see
///   ``CSVParser``), one header row.
/// - Geometry: the `geo_shape` column (older exports: `Geo Shape`), a GeoJSON geometry object,
///   parsed with the GeoJSON rules (``GeoJSONGeometry``). When it is absent or empty, a point from
///   `geo_point_2d` (older: `Geo Point`), written **latitude first**: `"39.47, -0.37"`.
/// - Properties: every column except the `geo_shape` one, as **strings** (`geo_point_2d` is kept
///   as its text). Columns are not typed: opendatasoft writes codes with leading zeros
///   (`coddistbar` = `021`) and decimal commas in text (`0,19 €/kWp`) that a number guess would
///   mangle. Empty cells are null.
/// - Ids: ``ReadOptions/idField`` (a column), else the 1-based data row number. Repeated ids are
///   kept (see ``FeatureCollection/duplicateIDs()``).
/// - CRS: opendatasoft always publishes WGS84, so ``FeatureCollection/crs`` is EPSG:4326.
///
/// Errors name the 1-based line in the file where the record starts (line breaks inside quoted
/// fields counted), the data row as the feature number, and the column.
public struct OpendatasoftCSVReader: FeatureFileReader {
    public var options: ReadOptions

    public static let shapeColumns = ["geo_shape", "Geo Shape"]
    public static let pointColumns = ["geo_point_2d", "Geo Point"]

    public init(options: ReadOptions = ReadOptions()) {
        self.options = options
    }

    /// Reads CSV held in memory; `source` names it in errors.
    public func read(data: Data, source: String) throws(FormatError) -> FeatureCollection {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let bad = TextDecoding.firstInvalidUTF8Offset(bytes) {
            throw FormatError(
                .invalidEncoding, file: source, line: FileLoading.lineNumber(ofByteOffset: bad, in: bytes),
                byteOffset: bad + (data.count - bytes.count),
                message:
                    "not valid UTF-8 (opendatasoft exports are UTF-8; convert the file, e.g. iconv -f latin1 -t utf-8)")
        }
        let records: [CSVParser.Record]
        do {
            records = try CSVParser.records(bytes)
        } catch {
            // The header names the column, unless the error is in the header itself.
            let header = (try? CSVParser.records(Array(bytes.prefix { $0 != 0x0A && $0 != 0x0D })))?.first?.fields
            let column =
                error.line > 1 ? header.flatMap { error.fieldIndex < $0.count ? $0[error.fieldIndex] : nil } : nil
            throw FormatError(
                .invalidSyntax, file: source, line: error.line, column: column ?? "#\(error.fieldIndex + 1)",
                message: error.message)
        }
        guard let headerRecord = records.first else {
            throw FormatError(.invalidSyntax, file: source, line: 1, message: "file is empty (expected a header row)")
        }
        let header = headerRecord.fields.map { $0.trimmingWhitespace() }
        func column(_ names: [String]) -> Int? {
            let wanted = Set(names.map { $0.lowercased() })
            return header.firstIndex { wanted.contains($0.lowercased()) }
        }
        let shapeColumn = column(Self.shapeColumns)
        let pointColumn = column(Self.pointColumns)
        guard shapeColumn != nil || pointColumn != nil else {
            throw FormatError(
                .missingField, file: source, line: headerRecord.line,
                message:
                    "no geometry column: expected 'geo_shape' or 'Geo Shape', or 'geo_point_2d' or 'Geo Point' "
                    + "(columns: \(header.joined(separator: ", ")))"
            )
        }
        for (role, field) in [("id", options.idField), ("name", options.nameField)] {
            if let field, !header.contains(field) {
                throw FormatError(
                    .missingField, file: source, line: headerRecord.line, column: field,
                    message:
                        "\(role) column '\(field)' is not in the header (columns: \(header.joined(separator: ", ")))")
            }
        }

        let naming = FeatureNaming(options: options)
        var features: [Feature] = []
        var warnings: [String] = []
        features.reserveCapacity(records.count - 1)
        for (k, record) in records.dropFirst().enumerated() {
            let number = k + 1
            guard record.fields.count == header.count else {
                throw FormatError(
                    .invalidSyntax, file: source, line: record.line, featureNumber: number,
                    message:
                        "row has \(record.fields.count) fields but the header has \(header.count) (a stray ';' or a missing quote?)"
                )
            }
            var properties: [String: PropertyValue] = [:]
            properties.reserveCapacity(header.count)
            for (c, name) in header.enumerated() where c != shapeColumn {
                let value = record.fields[c]
                properties[name] = value.isEmpty ? .null : .string(value)
            }
            guard let id = naming.id(properties: properties, nativeID: nil, number: number) else {
                throw naming.missingIDError(
                    file: source, line: record.line, featureNumber: number, properties: properties)
            }
            var geometry: Geometry?
            if let shapeColumn, !record.fields[shapeColumn].trimmingWhitespace().isEmpty {
                geometry = try shape(
                    record.fields[shapeColumn], column: header[shapeColumn], line: record.line, number: number, id: id,
                    source: source)
            }
            if geometry == nil, let pointColumn, !record.fields[pointColumn].trimmingWhitespace().isEmpty {
                geometry = try latLonPoint(
                    record.fields[pointColumn], column: header[pointColumn], line: record.line, number: number, id: id,
                    source: source)
            }
            guard let geometry else {
                if options.skipFeaturesWithoutGeometry {
                    warnings.append("line \(record.line), row \(number) (id \(id)): no geometry; skipped")
                    continue
                }
                throw FormatError(
                    .missingGeometry, file: source, line: record.line, featureNumber: number, featureID: id,
                    column: [shapeColumn, pointColumn].compactMap { $0.map { header[$0] } }.joined(separator: "/"),
                    message:
                        "row has no geometry (empty geometry columns)"
                )
            }
            features.append(
                Feature(
                    id: id, name: naming.name(properties: properties, nativeName: nil), geometry: geometry,
                    properties: properties))
        }
        return FeatureCollection(features: features, crs: .epsg(4326), source: source, warnings: warnings)
    }

    private func shape(
        _ text: String, column: String, line: Int, number: Int, id: String, source: String
    ) throws(FormatError) -> Geometry? {
        let json: JSONValue
        do {
            json = try JSONParser.parse(Array(text.utf8))
        } catch {
            // Lines inside the field are not lines of the file: give the column within the field.
            throw FormatError(
                .invalidSyntax, file: source, line: line, featureNumber: number, featureID: id, column: column,
                message:
                    "is not valid GeoJSON (at line \(error.line), column \(error.column) of the field): \(error.message)"
            )
        }
        do {
            return try GeoJSONGeometry.parse(json, path: column)
        } catch {
            throw FormatError(
                error.code, file: source, line: line, featureNumber: number, featureID: id, column: column,
                fieldPath: error.path, message: error.message)
        }
    }

    /// `"39.47, -0.37"`: latitude first.
    private func latLonPoint(
        _ text: String, column: String, line: Int, number: Int, id: String, source: String
    ) throws(FormatError) -> Geometry {
        let parts = text.split(separator: ",").map { $0.trimmingWhitespace() }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else {
            throw FormatError(
                .invalidGeometry, file: source, line: line, featureNumber: number, featureID: id, column: column,
                message: "expected 'lat, lon' (two numbers, latitude first), found '\(JSONValue.truncated(text, 60))'")
        }
        do {
            return .point(try Point(latitude: lat, longitude: lon).validatedGeographic())
        } catch {
            throw FormatError(
                .invalidGeometry, file: source, line: line, featureNumber: number, featureID: id, column: column,
                message: "\(error) ('\(text)' is read as latitude, longitude)")
        }
    }
}
