import GeoqCore

/// Decoding of .shp records (ESRI Shapefile Technical Description, July 1998).
///
/// File header (100 bytes): file code 9994 (big-endian) at 0, file length in 16-bit words
/// (big-endian) at 24, version 1000 (little-endian) at 28, shape type at 32, bounding box at 36.
/// Each record: number and content length in words (big-endian), then the content, whose first
/// 4 bytes are the shape type (little-endian); all coordinates are little-endian doubles.
enum ShapefileGeometry {
    struct Span {
        /// Byte offset of the record header.
        var offset: Int
        /// Byte offset and length of the record content.
        var contentOffset: Int
        var contentLength: Int
    }

    /// A decoded shape: finished, or polygon parts still to be grouped into polygons.
    enum Decoded {
        case done(Geometry)
        case rings([[Point]])
    }

    static func typeName(_ type: Int32) -> String {
        switch type {
        case 0: "Null"
        case 1: "Point"
        case 3: "PolyLine"
        case 5: "Polygon"
        case 8: "MultiPoint"
        case 11: "PointZ"
        case 13: "PolyLineZ"
        case 15: "PolygonZ"
        case 18: "MultiPointZ"
        case 21: "PointM"
        case 23: "PolyLineM"
        case 25: "PolygonM"
        case 28: "MultiPointM"
        case 31: "MultiPatch"
        default: "unknown type \(type)"
        }
    }

    /// Validates the header and lists the records, checking that each lies inside the file.
    static func recordSpans(_ view: ByteView, file: String, warnings: inout [String]) throws(FormatError) -> [Span] {
        guard view.has(100, at: 0) else {
            throw FormatError(
                .truncatedFile, file: file,
                message: "is \(view.count) bytes long; a .shp header alone takes 100 (the file is truncated or empty)")
        }
        let code = view.int32BE(0)
        guard code == 9994 else {
            throw FormatError(
                .unsupportedFormat, file: file, byteOffset: 0,
                message: "not a shapefile: file code is \(code), expected 9994")
        }
        let declaredLength = Int(view.int32BE(24)) * 2
        let fileType = view.int32LE(32)
        if ![0, 1, 3, 5, 8, 11, 13, 15, 18, 21, 23, 25, 28].contains(fileType) {
            throw FormatError(
                .unsupportedGeometry, file: file, byteOffset: 32,
                message:
                    "unsupported shape type \(typeName(fileType)); supported: Point, MultiPoint, PolyLine, Polygon and their Z/M variants"
            )
        }
        if declaredLength > view.count {
            throw FormatError(
                .truncatedFile, file: file, byteOffset: view.count,
                message:
                    "header declares \(declaredLength) bytes but the file has \(view.count) (the file is truncated; copy it again)"
            )
        }
        if declaredLength < view.count {
            warnings.append(
                "\(file): \(view.count - max(declaredLength, 100)) bytes after the length the header declares were ignored"
            )
        }
        let end = max(100, declaredLength)
        var spans: [Span] = []
        var offset = 100
        while offset < end {
            let number = spans.count + 1
            guard view.has(8, at: offset), offset + 8 <= end else {
                throw FormatError(
                    .truncatedFile, file: file, byteOffset: offset, featureNumber: number,
                    message: "record header cut short: the file ends \(end - offset) bytes into it")
            }
            let words = Int(view.int32BE(offset + 4))
            let length = words * 2
            guard words >= 2, length <= end - offset - 8 else {
                throw FormatError(
                    .truncatedFile, file: file, byteOffset: offset, featureNumber: number,
                    message: words < 2
                        ? "record content length \(length) bytes is impossible (corrupt file)"
                        : "record announces \(length) bytes of content but only \(end - offset - 8) remain (the file is truncated)"
                )
            }
            spans.append(Span(offset: offset, contentOffset: offset + 8, contentLength: length))
            offset += 8 + length
        }
        return spans
    }

    /// Decodes one record; nil for a null shape.
    static func decode(_ view: ByteView, span: Span, number: Int, file: String) throws(FormatError) -> Decoded? {
        let base = span.contentOffset
        let length = span.contentLength
        func corrupt(_ message: String) -> FormatError {
            FormatError(.truncatedFile, file: file, byteOffset: span.offset, featureNumber: number, message: message)
        }
        let type = view.int32LE(base)
        switch type {
        case 0:
            return nil

        case 1, 11, 21:
            guard length >= 20 else {
                throw corrupt("\(typeName(type)) record has \(length) bytes; at least 20 needed")
            }
            let p = Point(x: view.doubleLE(base + 4), y: view.doubleLE(base + 12))
            guard p.x.isFinite, p.y.isFinite else {
                throw FormatError(
                    .invalidGeometry, file: file, byteOffset: span.offset, featureNumber: number,
                    message: "point coordinate is not a finite number")
            }
            return .done(.point(p))

        case 8, 18, 28:
            guard length >= 40 else {
                throw corrupt("\(typeName(type)) record has \(length) bytes; at least 40 needed")
            }
            let count = Int(view.int32LE(base + 36))
            guard count >= 0, count <= (length - 40) / 16 else {
                throw corrupt(
                    "\(typeName(type)) record claims \(count) points but holds room for \((length - 40) / 16)")
            }
            if count == 0 { return nil }
            let points = try readPoints(view, at: base + 40, count: count, span: span, number: number, file: file)
            return .done(.multiPoint(points))

        case 3, 13, 23, 5, 15, 25:
            guard length >= 44 else {
                throw corrupt("\(typeName(type)) record has \(length) bytes; at least 44 needed")
            }
            let partCount = Int(view.int32LE(base + 36))
            let pointCount = Int(view.int32LE(base + 40))
            guard partCount >= 0, pointCount >= 0, partCount <= (length - 44) / 4,
                pointCount <= (length - 44 - 4 * partCount) / 16
            else {
                throw corrupt(
                    "\(typeName(type)) record claims \(partCount) parts and \(pointCount) points, more than its \(length) bytes hold"
                )
            }
            if pointCount == 0 || partCount == 0 { return nil }
            var starts: [Int] = []
            starts.reserveCapacity(partCount + 1)
            for k in 0..<partCount {
                let s = Int(view.int32LE(base + 44 + 4 * k))
                guard s >= 0, s < pointCount, s >= (starts.last ?? 0), k > 0 || s == 0 else {
                    throw FormatError(
                        .invalidGeometry, file: file, byteOffset: span.offset, featureNumber: number,
                        fieldPath: "parts[\(k)]",
                        message: "part \(k) starts at point \(s), which is out of order or outside 0..<\(pointCount)")
                }
                starts.append(s)
            }
            starts.append(pointCount)
            let all = try readPoints(
                view, at: base + 44 + 4 * partCount, count: pointCount, span: span, number: number, file: file)
            var parts: [[Point]] = []
            parts.reserveCapacity(partCount)
            for k in 0..<partCount {
                parts.append(Array(all[starts[k]..<starts[k + 1]]))
            }
            let isPolygon = type == 5 || type == 15 || type == 25
            if isPolygon { return .rings(parts) }
            for (k, part) in parts.enumerated() where part.count < 2 {
                throw FormatError(
                    .invalidGeometry, file: file, byteOffset: span.offset, featureNumber: number,
                    fieldPath: "parts[\(k)]",
                    message: "line part \(k) has \(part.count) point; at least 2 needed")
            }
            return .done(parts.count == 1 ? .lineString(parts[0]) : .multiLineString(parts))

        default:
            throw FormatError(
                .unsupportedGeometry, file: file, byteOffset: span.offset, featureNumber: number,
                message:
                    "unsupported shape type \(typeName(type)); supported: Point, MultiPoint, PolyLine, Polygon and their Z/M variants"
            )
        }
    }

    /// `count` little-endian (x, y) pairs at `offset` (already checked to lie in the record).
    private static func readPoints(
        _ view: ByteView, at offset: Int, count: Int, span: Span, number: Int, file: String
    ) throws(FormatError) -> [Point] {
        guard view.has(16 * count, at: offset) else {
            throw FormatError(
                .truncatedFile, file: file, byteOffset: span.offset, featureNumber: number,
                message: "points run past the end of the file")
        }
        var points = [Point]()
        points.reserveCapacity(count)
        var o = offset
        for i in 0..<count {
            let x = view.doubleLE(o)
            let y = view.doubleLE(o + 8)
            guard x.isFinite, y.isFinite else {
                throw FormatError(
                    .invalidGeometry, file: file, byteOffset: span.offset, featureNumber: number,
                    fieldPath: "points[\(i)]",
                    message: "coordinate is not a finite number")
            }
            points.append(Point(x: x, y: y))
            o += 16
        }
        return points
    }
}
