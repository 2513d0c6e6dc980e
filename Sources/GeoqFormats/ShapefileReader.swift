import Foundation
import GeoqCore

/// Reads an ESRI shapefile: the .shp (geometry), the .dbf (attributes, required), and when
/// present the .prj (CRS, as WKT), the .cpg (attribute encoding) and the .shx (only checked).
///
/// - Shape types: Point (1), PolyLine (3), Polygon (5), MultiPoint (8) and their Z (11, 13, 15,
///   18) and M (21, 23, 25, 28) variants, whose Z and M values are ignored. MultiPatch (31) and
///   unknown types are errors naming the record.
/// - Polygon parts become rings grouped by ``RingAssembly`` (clockwise outer rings,
///   counter-clockwise holes, each hole in the smallest outer ring containing it): one outer ring
///   gives `.polygon`, several give `.multiPolygon`. Parts that are not closed are closed (and
///   counted in a warning).
/// - Null shapes (type 0, or a shape with no points): an error naming the record, or skipped
///   when ``ReadOptions/skipFeaturesWithoutGeometry`` is set.
/// - Shape *n* pairs with .dbf record *n*: the record counts must agree. Records marked deleted
///   in the .dbf are skipped together with their shape, so the pairing holds.
/// - Ids: ``ReadOptions/idField`` (a .dbf field), else the 1-based record number.
/// - CRS: the .prj as ``CRSDeclaration/definition(_:)`` (WGS84 geographic WKT becomes EPSG:4326);
///   nil without a .prj. No reprojection.
///
/// The .shp is loaded once and decoded with unaligned loads and explicit byte order; every
/// offset is checked against the file and record lengths first, so a truncated or corrupt file is
/// an error (``FormatError/Code/truncatedFile``), never a crash. Errors name the record as
/// feature *n* (1-based, the shapefile's own record numbering) and its byte offset.
public struct ShapefileReader: Sendable {
    public var options: ReadOptions

    public init(options: ReadOptions = ReadOptions()) {
        self.options = options
    }

    /// Reads the shapefile whose .shp is at `url` (companions are found beside it, in lower or
    /// upper case).
    public func read(at url: URL) throws(FormatError) -> FeatureCollection {
        let shpPath = url.path
        // The .dbf is read and its records decoded on a second thread while the .shp is read and
        // its shapes decoded on this one. Errors keep their order: the .shp's reading, a missing
        // .dbf, the .dbf's, the .prj's, a missing field, then the shapes'.
        let dbfURL = FileLoading.sibling(of: url, withExtension: "dbf")
        let options = options
        let attributes = dbfURL.map { dbfURL in Alongside { Self.attributes(from: dbfURL, options: options) } }
        let shpData: Data
        do {
            shpData = try FileLoading.data(at: url)
        } catch {
            _ = attributes?.result()
            throw error
        }
        guard let dbfURL, let attributes else {
            throw FormatError(
                .fileNotFound, file: url.deletingPathExtension().appendingPathExtension("dbf").path,
                message:
                    "no such file: a shapefile needs its .dbf (attributes) beside the .shp; copy all the files of the export together"
            )
        }

        // Geometry: one pass over the record headers, then decode per record and make its rings
        // into polygons while the .dbf is still being read (a record the .dbf marks deleted is
        // decoded too, its error dropped with it once the .dbf is known).
        var shapeWarnings: [String] = []
        let decoded: Result<[Span], FormatError> = shpData.withUnsafeBytes { raw in
            do throws(FormatError) {
                let view = ByteView(raw: raw)
                let spans = try ShapefileGeometry.recordSpans(view, file: shpPath, warnings: &shapeWarnings)
                return .success(
                    spans.enumerated().map { index, span in
                        Span(
                            offset: span.offset,
                            shape: Result { () throws(FormatError) in
                                Shape(try ShapefileGeometry.decode(view, span: span, number: index + 1, file: shpPath))
                            })
                    })
            } catch {
                return .failure(error)
            }
        }
        let (dbf, properties, dbfWarnings) = try attributes.result().get()
        var warnings = dbfWarnings

        var crs: CRSDeclaration?
        if let prjURL = FileLoading.sibling(of: url, withExtension: "prj") {
            let prj = try FileLoading.data(at: prjURL)
            let text = TextDecoding.decode(prj, as: TextDecoding.isValidUTF8(prj) ? .utf8 : .latin1)
            crs = CRSDeclaration(prj: text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
            if crs == nil { warnings.append("\(prjURL.path): empty .prj; CRS unknown") }
        } else {
            warnings.append("\(shpPath): no .prj beside the .shp; CRS unknown")
        }

        // Check requested fields against the table before reading any record.
        for (role, field) in [("id", options.idField), ("name", options.nameField)] {
            if let field, !dbf.fieldNames.contains(field) {
                throw FormatError(
                    .missingField, file: dbfURL.path, column: field,
                    message:
                        "\(role) field '\(field)' is not a field of the .dbf (fields: \(dbf.fieldNames.joined(separator: ", ")))"
                )
            }
        }

        let spans = try decoded.get()
        warnings += shapeWarnings
        if spans.count != dbf.recordCount {
            throw FormatError(
                .inconsistentFiles, file: shpPath,
                message:
                    "the .shp holds \(spans.count) shapes but \(dbfURL.lastPathComponent) holds "
                    + "\(dbf.recordCount) records; they pair up by position, so they must come from the same export"
            )
        }
        var records: [(index: Int, offset: Int, shape: Shape)] = []
        records.reserveCapacity(spans.count)
        for (index, span) in spans.enumerated() where !dbf.isDeleted(index) {
            records.append((index, span.offset, try span.shape.get()))
        }

        if let shxURL = FileLoading.sibling(of: url, withExtension: "shx"),
            let size = ((try? FileManager.default.attributesOfItem(atPath: shxURL.path))?[.size] as? NSNumber)?
                .intValue,
            size >= 100, (size - 100) / 8 != dbf.recordCount
        {
            warnings.append(
                "\(shxURL.path): index lists \((size - 100) / 8) records, the .shp \(dbf.recordCount); the index was not used"
            )
        }
        let deleted = dbf.recordCount - records.count
        if deleted > 0 {
            warnings.append(
                "\(dbfURL.path): \(deleted) record\(deleted == 1 ? "" : "s") marked deleted; skipped with their shapes")
        }

        // Features.
        let naming = FeatureNaming(options: options)
        var features: [Feature] = []
        features.reserveCapacity(records.count)
        var openRings = 0
        var orphanHoles = 0
        for record in records {
            let number = record.index + 1
            let properties = try properties[record.index].get()
            guard let id = naming.id(properties: properties, nativeID: nil, number: number) else {
                var error = naming.missingIDError(file: dbfURL.path, featureNumber: number, properties: properties)
                error.byteOffset = nil
                throw error
            }
            let geometry: Geometry
            switch record.shape {
            case .null:
                if options.skipFeaturesWithoutGeometry {
                    warnings.append("record \(number) (id \(id)): null shape; skipped")
                    continue
                }
                throw FormatError(
                    .missingGeometry, file: shpPath, byteOffset: record.offset, featureNumber: number, featureID: id,
                    message:
                        "record has a null shape (no geometry)")
            case .badRing(let k, let error):
                throw FormatError(
                    .invalidGeometry, file: shpPath, byteOffset: record.offset, featureNumber: number,
                    featureID: id, fieldPath: "parts[\(k)]",
                    message: RingMessages.describe(error, role: "part \(k)"))
            case .geometry(let g, let open, let orphans):
                geometry = g
                openRings += open
                orphanHoles += orphans
            }
            features.append(
                Feature(
                    id: id, name: naming.name(properties: properties, nativeName: nil), geometry: geometry,
                    properties: properties))
        }
        if openRings > 0 {
            warnings.append(
                "\(shpPath): \(openRings) polygon part\(openRings == 1 ? " was" : "s were") not closed; closed them")
        }
        if orphanHoles > 0 {
            warnings.append(
                "\(shpPath): \(orphanHoles) counter-clockwise ring\(orphanHoles == 1 ? "" : "s") "
                    + "inside no outer ring; taken as outer rings"
            )
        }
        return FeatureCollection(features: features, crs: crs, source: shpPath, warnings: warnings)
    }

    /// A shape as decoded, with the byte offset of its record.
    private struct Span {
        var offset: Int
        var shape: Result<Shape, FormatError>
    }

    /// A record's shape made into a geometry, or why it cannot be: told once the record's id is
    /// known (from the .dbf).
    private enum Shape {
        case null
        /// With how many of its rings were not closed, and how many holes lay in no outer ring.
        case geometry(Geometry, openRings: Int, orphanHoles: Int)
        /// Part `part` is not a ring.
        case badRing(part: Int, GeometryError)

        init(_ decoded: ShapefileGeometry.Decoded?) {
            switch decoded {
            case nil: self = .null
            case .done(let g)?: self = .geometry(g, openRings: 0, orphanHoles: 0)
            case .rings(let parts)?:
                var rings: [Ring] = []
                rings.reserveCapacity(parts.count)
                var open = 0
                for (k, part) in parts.enumerated() {
                    if part.count >= 1, part[0] != part[part.count - 1] { open += 1 }
                    do {
                        rings.append(try Ring(closing: part))
                    } catch {
                        self = .badRing(part: k, error)
                        return
                    }
                }
                let assembled = RingAssembly.polygons(from: rings)
                self = .geometry(
                    assembled.polygons.count == 1
                        ? .polygon(assembled.polygons[0]) : .multiPolygon(MultiPolygon(assembled.polygons)),
                    openRings: open, orphanHoles: assembled.orphanHoles)
            }
        }
    }

    /// The .dbf at `url`: the table, each record's attributes (decoded for the records not
    /// marked deleted), and the warnings its text gave.
    private static func attributes(
        from url: URL, options: ReadOptions
    ) -> Result<(DBFTable, [Result<[String: PropertyValue], FormatError>], [String]), FormatError> {
        Result { () throws(FormatError) in
            var warnings: [String] = []
            let data = try FileLoading.data(at: url)
            let cpg = FileLoading.sibling(of: url, withExtension: "cpg").flatMap { try? FileLoading.data(at: $0) }.map {
                TextDecoding.decode($0, as: TextDecoding.isValidUTF8($0) ? .utf8 : .latin1)
            }
            let dbf = try DBFTable(
                data: data, file: url.path, cpg: cpg, forced: options.dbfEncoding, warnings: &warnings)
            let records = (0..<dbf.recordCount).map { index in
                dbf.isDeleted(index)
                    ? .success([:]) : Result { () throws(FormatError) in try dbf.record(index) }
            }
            return (dbf, records, warnings)
        }
    }
}
