/// Why a file could not be read, with the place in the file and a message a person can act on.
///
/// Places are counted the way people count them:
/// - `line` is 1-based (text formats: CSV, KML, and JSON syntax errors when the parser says where);
/// - `featureNumber` is 1-based: the first feature of a GeoJSON collection, the first KML
///   Placemark, the first CSV data row and the first shapefile record are all feature 1
///   (shapefile record numbers and the default feature ids count the same way);
/// - `fieldPath` is relative to the feature and uses 0-based JSON-style indices, e.g.
///   `geometry.coordinates[0][2]` or `geo_shape.coordinates[1]`.
///
/// ``description`` joins them as `file: line 12, feature 3 (id BIEN.4), column 'geo_shape':
/// geometry.coordinates[0]: ring is not closed: ...`.
public struct FormatError: Error, CustomStringConvertible, Sendable {
    /// Stable codes, for mapping to exit codes or HTTP statuses in one place.
    public enum Code: String, Hashable, Sendable {
        /// The file (or a mandatory companion such as a shapefile's .dbf) does not exist.
        case fileNotFound
        /// The file exists but could not be read (permissions, a directory, an I/O error).
        case unreadableFile
        /// The extension or content is not one of the supported formats.
        case unsupportedFormat
        /// Malformed JSON, XML or CSV.
        case invalidSyntax
        /// Text that is not valid in the declared or expected encoding.
        case invalidEncoding
        /// A binary file ends before the data its header announces.
        case truncatedFile
        /// Companion files disagree (e.g. the .dbf and the .shp hold different record counts).
        case inconsistentFiles
        /// A required member, column or attribute is absent (including a requested id field).
        case missingField
        /// A geometry that cannot be built: open ring, too few positions, bad coordinates.
        case invalidGeometry
        /// A geometry type the engine does not handle (GeometryCollection, MultiPatch, ...).
        case unsupportedGeometry
        /// A feature without geometry (when ``ReadOptions/skipFeaturesWithoutGeometry`` is off).
        case missingGeometry
        /// A value of the wrong kind (a string where a number is expected, a bad date...).
        case invalidValue
    }

    public var code: Code
    /// The file's path, as given to the reader.
    public var file: String
    /// 1-based line in a text file, when known.
    public var line: Int?
    /// 0-based byte offset in the file, when known (binary formats, JSON syntax errors).
    public var byteOffset: Int?
    /// 1-based feature number (GeoJSON feature, KML Placemark, CSV data row, shapefile record).
    public var featureNumber: Int?
    /// The feature's id, when it was known at the time of the error.
    public var featureID: String?
    /// The CSV column, or the DBF field, concerned.
    public var column: String?
    /// Path of the offending member inside the feature, e.g. `geometry.coordinates[0][2]`.
    public var fieldPath: String?
    /// What is wrong and, where possible, what to do about it.
    public var message: String

    public init(
        _ code: Code, file: String, line: Int? = nil, byteOffset: Int? = nil,
        featureNumber: Int? = nil, featureID: String? = nil, column: String? = nil,
        fieldPath: String? = nil, message: String
    ) {
        self.code = code
        self.file = file
        self.line = line
        self.byteOffset = byteOffset
        self.featureNumber = featureNumber
        self.featureID = featureID
        self.column = column
        self.fieldPath = fieldPath
        self.message = message
    }

    /// The place in the file, e.g. `line 12, feature 3 (id 7)`, or nil when unknown.
    public var place: String? {
        var parts: [String] = []
        if let line { parts.append("line \(line)") }
        if let byteOffset { parts.append("byte \(byteOffset)") }
        if let featureNumber {
            if let featureID {
                parts.append("feature \(featureNumber) (id \(featureID))")
            } else {
                parts.append("feature \(featureNumber)")
            }
        } else if let featureID {
            parts.append("feature id \(featureID)")
        }
        if let column { parts.append("column '\(column)'") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    public var description: String {
        var parts = [file]
        if let place { parts.append(place) }
        if let fieldPath, !fieldPath.isEmpty { parts.append(fieldPath) }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}
