import Foundation
import GeoqCore

/// Reads GeoJSON (RFC 7946): a FeatureCollection, a single Feature, or a bare geometry.
///
/// - Geometry types: Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon
///   (see ``GeoJSONGeometry`` for the exact rules). `GeometryCollection` is an error.
/// - CRS: the legacy (2008) `crs` member, `{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::25830"}}`
///   or `{"type":"EPSG","properties":{"code":25830}}`, becomes ``FeatureCollection/crs``; without
///   it `crs` is nil (RFC 7946 says WGS84, but check ``FeatureCollection/coordinatesLookProjected()``).
/// - Properties: strings, numbers, booleans and null map to ``PropertyValue``; nested objects and
///   arrays become their JSON text.
/// - Ids: ``ReadOptions/idField``, else the feature's `id` member, else the 1-based feature number.
///
/// Parsing uses ``JSONParser`` (not `JSONSerialization`, whose number parsing is not correctly
/// rounded on Linux): syntax errors give the line and column; errors inside features name the
/// 1-based feature number, its id and the JSON path.
public struct GeoJSONReader: FeatureFileReader {
    public var options: ReadOptions

    public init(options: ReadOptions = ReadOptions()) {
        self.options = options
    }

    /// Reads GeoJSON held in memory; `source` names it in errors.
    public func read(data: Data, source: String) throws(FormatError) -> FeatureCollection {
        guard !data.isEmpty else {
            throw FormatError(.invalidSyntax, file: source, line: 1, message: "file is empty (expected GeoJSON)")
        }
        let json: JSONValue
        do {
            json = try data.withUnsafeBytes { raw in
                Result { () throws(JSONParser.SyntaxError) in try JSONParser.parse(raw.bindMemory(to: UInt8.self)) }
            }.get()
        } catch {
            throw FormatError(
                .invalidSyntax, file: source, line: error.line, byteOffset: error.offset,
                message: "invalid JSON at column \(error.column): \(error.message)")
        }
        guard let root = json.objectValue else {
            throw FormatError(
                .invalidSyntax, file: source,
                message: "expected a GeoJSON object at the top level, found \(json.summary)")
        }
        var warnings: [String] = []
        let crs = declaredCRS(root, source: source, warnings: &warnings)

        guard let type = root["type"]?.stringValue else {
            throw FormatError(
                .missingField, file: source, fieldPath: "type", message: "top-level object has no string 'type' member")
        }
        var features: [Feature] = []
        let naming = FeatureNaming(options: options)
        switch type {
        case "FeatureCollection":
            guard let list = root["features"]?.arrayValue else {
                throw FormatError(
                    .missingField, file: source, fieldPath: "features",
                    message: "FeatureCollection has no 'features' array")
            }
            features.reserveCapacity(list.count)
            for (index, item) in list.enumerated() {
                if let f = try feature(item, number: index + 1, naming: naming, source: source, warnings: &warnings) {
                    features.append(f)
                }
            }
            if let nameField = options.nameField, !list.isEmpty,
                !list.contains(where: { $0["properties"]?[nameField] != nil })
            {
                let keys = Set(list.flatMap { $0["properties"]?.objectValue?.keys.map { $0 } ?? [] })
                throw naming.unknownNameFieldError(file: source, available: keys.sorted())
            }
        case "Feature":
            if let f = try feature(json, number: 1, naming: naming, source: source, warnings: &warnings) {
                features.append(f)
            }
        default:
            // A bare geometry (or an unknown type, which the geometry parser names).
            let geometry: Geometry?
            do {
                geometry = try GeoJSONGeometry.parse(json, path: "")
            } catch {
                throw FormatError(
                    error.code, file: source, fieldPath: error.path.isEmpty ? nil : error.path, message: error.message)
            }
            if let geometry {
                features.append(Feature(id: "1", geometry: geometry))
            }
        }
        return FeatureCollection(features: features, crs: crs, source: source, warnings: warnings)
    }

    private func feature(
        _ json: JSONValue, number: Int, naming: FeatureNaming, source: String, warnings: inout [String]
    ) throws(FormatError) -> Feature? {
        guard let object = json.objectValue else {
            throw FormatError(
                .invalidSyntax, file: source, featureNumber: number,
                message: "expected a Feature object, found \(json.summary)")
        }
        let nativeID = object["id"]?.idText
        if let type = object["type"]?.stringValue, type != "Feature" {
            throw FormatError(
                .invalidSyntax, file: source, featureNumber: number, featureID: nativeID, fieldPath: "type",
                message: "expected type 'Feature', found '\(type)'")
        }
        var properties: [String: PropertyValue] = [:]
        if let raw = object["properties"], !raw.isNull {
            guard let dict = raw.objectValue else {
                throw FormatError(
                    .invalidValue, file: source, featureNumber: number, featureID: nativeID, fieldPath: "properties",
                    message: "properties must be an object or null, found \(raw.summary)")
            }
            properties.reserveCapacity(dict.count)
            for (key, value) in dict { properties[key] = value.propertyValue }
        }
        guard let id = naming.id(properties: properties, nativeID: nativeID, number: number) else {
            throw naming.missingIDError(file: source, featureNumber: number, properties: properties)
        }
        let geometry: Geometry?
        do {
            geometry = try GeoJSONGeometry.parse(object["geometry"] ?? .null, path: "geometry")
        } catch {
            throw FormatError(
                error.code, file: source, featureNumber: number, featureID: id, fieldPath: error.path,
                message: error.message)
        }
        guard let geometry else {
            if options.skipFeaturesWithoutGeometry {
                warnings.append("feature \(number) (id \(id)): no geometry; skipped")
                return nil
            }
            throw FormatError(
                .missingGeometry, file: source, featureNumber: number, featureID: id, fieldPath: "geometry",
                message:
                    "feature has no geometry (null or absent); pass skipFeaturesWithoutGeometry to skip such features")
        }
        return Feature(
            id: id, name: naming.name(properties: properties, nativeName: nil), geometry: geometry,
            properties: properties)
    }

    /// The legacy `crs` member. Malformed or `link` CRS objects give a warning, not an error.
    private func declaredCRS(_ root: [String: JSONValue], source: String, warnings: inout [String]) -> CRSDeclaration? {
        guard let raw = root["crs"], !raw.isNull else { return nil }
        guard let type = raw["type"]?.stringValue else {
            warnings.append("'crs' member is not an object with a 'type'; ignored")
            return nil
        }
        let props = raw["properties"]
        switch type.lowercased() {
        case "name":
            if let name = props?["name"]?.stringValue, let declaration = CRSDeclaration(name: name) {
                return declaration
            }
        case "epsg":
            if let code = props?["code"]?.numberValue, code > 0, code.rounded() == code, code < 1e9 {
                return .epsg(Int(code))
            }
        default:
            break
        }
        warnings.append("'crs' member of type '\(type)' not understood (\(raw.jsonText)); ignored")
        return nil
    }
}
