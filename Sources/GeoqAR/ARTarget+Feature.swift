import Foundation
import GeoqCore

extension ARTarget {
    /// The target for a point feature at `position`: named by the feature's name, else by an
    /// attribute that means "name" (see ``guessedName(of:)``), else by its id; at the altitude
    /// of its numeric altitude attribute, if any (see ``altitude(of:)``).
    public init(feature: Feature, position: Point) {
        self.init(
            id: feature.id, name: feature.name ?? Self.guessedName(of: feature) ?? feature.id, position: position,
            altitude: Self.altitude(of: feature))
    }

    /// The text of the first attribute (in name order) whose name has a word meaning "name":
    /// name, nom, nombre, title, titulo, título (Valencia's fallas: "Nom / Nombre").
    public static func guessedName(of feature: Feature) -> String? {
        let words: Set<String> = ["name", "nom", "nombre", "title", "titulo", "título"]
        for key in feature.properties.keys.sorted() {
            let parts = key.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
            guard parts.contains(where: words.contains),
                let text = feature.properties[key]?.text?.trimmingCharacters(in: .whitespaces), !text.isEmpty
            else { continue }
            return text
        }
        return nil
    }

    /// A numeric attribute altitude, alt, elevation, ele or z (metres), if the feature has one.
    public static func altitude(of feature: Feature) -> Double? {
        for key in ["altitude", "alt", "elevation", "ele", "z"] {
            switch feature.properties[key] {
            case .number(let v) where v.isFinite: return v
            case .string(let s): if let v = Double(s.trimmingCharacters(in: .whitespaces)), v.isFinite { return v }
            default: continue
            }
        }
        return nil
    }
}
