import Foundation
import GeoqCore

/// Reads the services XML of the original Valencia Fallas app (SPEC §2): restaurants, shops...
/// near the fallas, each a child of `<Anuncios>` named by its type:
/// `<Anuncios><Restaurantes id="3"><localeName/><direccion/><latitud/><longitud/><tipo/>
/// <telefono/><texto/></Restaurantes><Tiendas id="8">…</Tiendas></Anuncios>`.
///
/// - **One feature per child of `<Anuncios>`**, in document order. **Id**: the `id` attribute,
///   else the 1-based service number, unless ``ReadOptions/idField`` names a child element.
///   **Name**: `<localeName>`, unless ``ReadOptions/nameField`` says otherwise.
/// - **Geometry**: ``Geometry/point(_:)`` at `<latitud>`, `<longitud>` (WGS84 degrees). The
///   numbers are decimals with a dot **or a comma** as the decimal separator ("39,4699" is
///   39.4699; a comma is read as the separator only when there is no dot and a single comma), as
///   Spanish sources write them. Latitude must be in [-90, 90], longitude in [-180, 180]; when only
///   the exchanged numbers are in range the error says the two look swapped.
/// - **Properties**: every child element without child elements of its own (`localeName`,
///   `direccion`, `latitud`, `longitud`, `tipo`, `telefono`, `texto`, ...) as a trimmed string as
///   written (an empty element is ``PropertyValue/null``; a repeated one keeps its first value),
///   plus `categoria` = the service's element name (`Restaurantes`), which wins over a child
///   element of that name.
/// - **Errors** (``FormatError``) name the 1-based line and service with its id and name:
///   malformed XML, a coordinate that is not a number or out of range
///   (``FormatError/Code/invalidGeometry``), a service without `<latitud>` and `<longitud>`
///   (``FormatError/Code/missingGeometry``, or skipped with a warning under
///   ``ReadOptions/skipFeaturesWithoutGeometry``). A root other than `<Anuncios>` is
///   ``FormatError/Code/unsupportedFormat``.
/// - An `<Anuncios>` without children is valid: zero features, and a warning.
/// - ``FeatureCollection/crs`` is EPSG:4326.
public struct ServicesXMLReader: FeatureFileReader {
    public var options: ReadOptions

    public init(options: ReadOptions = ReadOptions()) {
        self.options = options
    }

    /// Reads services XML held in memory; `source` names it in errors.
    public func read(data: Data, source: String) throws(FormatError) -> FeatureCollection {
        try ServicesParseHandler(source: source, options: options).collection(
            data, expected: "an <Anuncios> document", noItems: "<Anuncios> holds no services")
    }
}

/// The streaming state machine behind ``ServicesXMLReader``.
final class ServicesParseHandler: PointFeatureParsing {
    private var service: ServiceState?

    private struct ServiceState {
        var category: String
        var number: Int
        var line: Int
        var idAttribute: String?
        var properties: [String: PropertyValue] = [:]
        /// The `<latitud>` and `<longitud>` texts with their lines.
        var latitude: (text: String, line: Int)?
        var longitude: (text: String, line: Int)?

        var name: String? { properties["localeName"]?.text }
        var label: String {
            var s = "service \(number) <\(category)"
            if let idAttribute { s += " id=\"\(idAttribute)\"" }
            s += ">"
            if let name, !name.isEmpty { s += " '\(name)'" }
            return s
        }
    }

    override func didOpen(_ frame: Frame, attributes: [String: String]) {
        switch stack.count {
        case 1:
            if frame.localName != "Anuncios" {
                fail(
                    FormatError(
                        .unsupportedFormat, file: source, line: frame.line,
                        message:
                            "not a services document: the root element is <\(frame.qualifiedName)>, expected <Anuncios>"
                    ))
            }
        case 2:
            itemCount += 1
            service = ServiceState(
                category: frame.qualifiedName, number: itemCount, line: frame.line, idAttribute: attributes["id"])
        default:
            break
        }
    }

    override func didClose(_ frame: Frame) {
        guard var s = service else { return }
        if stack.count == 1 {
            service = nil
            finish(s)
            return
        }
        // Only the service's direct, simple children are read.
        guard stack.count == 2, !frame.hasChildElements else { return }
        let text = frame.text.trimmingWhitespace()
        if s.properties[frame.qualifiedName] == nil {
            s.properties[frame.qualifiedName] = text.isEmpty ? .null : .string(text)
        }
        switch frame.localName {
        case "latitud" where s.latitude == nil: s.latitude = (text, frame.line)
        case "longitud" where s.longitude == nil: s.longitude = (text, frame.line)
        default: break
        }
        service = s
    }

    private func finish(_ s: ServiceState) {
        var properties = s.properties
        properties["categoria"] = .string(s.category)
        var lookup = properties
        if let idAttribute = s.idAttribute, lookup["id"] == nil { lookup["id"] = .string(idAttribute) }
        elementNames.formUnion(lookup.keys)
        guard let id = naming.id(properties: lookup, nativeID: s.idAttribute, number: s.number) else {
            fail(naming.missingIDError(file: source, line: s.line, featureNumber: s.number, properties: lookup))
            return
        }

        func geometryError(_ line: Int, _ field: String, _ message: String) {
            fail(
                FormatError(
                    .invalidGeometry, file: source, line: line, featureNumber: s.number, featureID: id,
                    fieldPath: field, message: "\(s.label): \(message)"))
        }

        let lat = s.latitude.flatMap { $0.text.isEmpty ? nil : $0 }
        let lon = s.longitude.flatMap { $0.text.isEmpty ? nil : $0 }
        guard let lat, let lon else {
            let missing = [lat == nil ? "<latitud>" : nil, lon == nil ? "<longitud>" : nil].compactMap { $0 }
            let why = "has no \(missing.joined(separator: " or ")) (or it is empty)"
            if options.skipFeaturesWithoutGeometry {
                warnings.append("\(s.label) (id \(id)), line \(s.line): \(why); skipped")
                return
            }
            fail(
                FormatError(
                    .missingGeometry, file: source, line: s.line, featureNumber: s.number, featureID: id,
                    message: "\(s.label) \(why)"))
            return
        }
        guard let latitude = GeographicPosition.decimal(lat.text, decimalComma: true) else {
            geometryError(lat.line, "latitud", "latitude '\(lat.text)' is not a number")
            return
        }
        guard let longitude = GeographicPosition.decimal(lon.text, decimalComma: true) else {
            geometryError(lon.line, "longitud", "longitude '\(lon.text)' is not a number")
            return
        }
        if let problem = GeographicPosition.problem(
            latitude: latitude, longitude: longitude, order: "<latitud> holds the latitude")
        {
            // Named by the element at fault: the longitude when only it is out of range.
            let latitudeFine = (-90...90).contains(latitude)
            geometryError(latitudeFine ? lon.line : lat.line, latitudeFine ? "longitud" : "latitud", problem)
            return
        }
        let nativeName = (s.name?.isEmpty ?? true) ? nil : s.name
        features.append(
            Feature(
                id: id, name: naming.name(properties: lookup, nativeName: nativeName),
                geometry: .point(Point(latitude: latitude, longitude: longitude)), properties: properties))
    }
}
