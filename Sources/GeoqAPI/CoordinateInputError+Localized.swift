import GeoqCore
import GeoqFormats
import GeoqSchedule

// The batch endpoint's words for a point it cannot read, in every answer language. The English
// is the command line's own message (`description`), so that both faces say the same.

extension CoordinateInputError {
    /// The message in Spanish, Basque and English, with the line when there is one.
    var localized: LocalizedText {
        let what: LocalizedText
        switch reason {
        case .notANumber(let name, let text):
            let axis = Self.axis(name)
            what = LocalizedText(
                es: "\(axis.es) '\(text)' no es un número", eu: "\(axis.eu) ('\(text)') ez da zenbaki bat",
                en: description(of: reason))
        case .notFinite(let name, let text):
            let axis = Self.axis(name)
            what = LocalizedText(
                es: "\(axis.es) '\(text)' no es un número finito",
                eu: "\(axis.eu) ('\(text)') ez da zenbaki finitu bat",
                en: description(of: reason))
        case .outOfRange(let error, let likelySwapped):
            let range = error.localized
            what =
                likelySwapped
                ? LocalizedText(
                    es: range.es + "; ¿puso primero la longitud? geoq espera LAT LON",
                    eu: range.eu + "; longitudea jarri duzu lehenik? geoq-ek LAT LON hartzen ditu",
                    en: description(of: reason)) : range
        case .fieldCount(let count):
            what = LocalizedText(
                es: "se esperaba 'lat,lon' o 'lat,lon,id'; la línea tiene \(count) campos",
                eu: "'lat,lon' edo 'lat,lon,id' espero zen; lerroak \(count) eremu ditu", en: description(of: reason))
        case .notAJSONObject:
            what = LocalizedText(es: "no es un objeto JSON", eu: "ez da JSON objektu bat", en: description(of: reason))
        case .missingField(let field):
            what = LocalizedText(es: "falta \"\(field)\"", eu: "\"\(field)\" falta da", en: description(of: reason))
        case .fieldsNotNumbers:
            what = LocalizedText(
                es: "\"lat\" y \"lon\" deben ser números", eu: "\"lat\" eta \"lon\" zenbakiak izan behar dira",
                en: description(of: reason))
        case .other(let message):
            what = LocalizedText(es: message, eu: message, en: message)
        }
        guard let line else { return what }
        return LocalizedText(es: "línea \(line): \(what.es)", eu: "\(line). lerroa: \(what.eu)", en: description)
    }

    /// The English of `reason` alone, without the line.
    private func description(of reason: Reason) -> String { CoordinateInputError(reason).description }

    private static func axis(_ name: String) -> LocalizedText {
        switch name {
        case "latitude": LocalizedText(es: "la latitud", eu: "latitudea", en: name)
        case "longitude": LocalizedText(es: "la longitud", eu: "longitudea", en: name)
        default: LocalizedText(es: name, eu: name, en: name)
        }
    }
}

extension CoordinateRangeError {
    /// The message in Spanish, Basque and English; the English is `description`.
    var localized: LocalizedText {
        switch self {
        case .latitudeNotFinite(let v):
            LocalizedText(
                es: "la latitud \(v) no es un número finito", eu: "latitudea (\(v)) ez da zenbaki finitu bat",
                en: description)
        case .longitudeNotFinite(let v):
            LocalizedText(
                es: "la longitud \(v) no es un número finito", eu: "longitudea (\(v)) ez da zenbaki finitu bat",
                en: description)
        case .latitudeOutOfRange(let v):
            LocalizedText(
                es: "la latitud \(v) está fuera de [-90, 90]", eu: "latitudea (\(v)) [-90, 90] tartetik kanpo dago",
                en: description)
        case .longitudeOutOfRange(let v):
            LocalizedText(
                es: "la longitud \(v) está fuera de [-180, 180]",
                eu: "longitudea (\(v)) [-180, 180] tartetik kanpo dago", en: description)
        }
    }
}
