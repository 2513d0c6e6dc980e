import Foundation
import GeoqCore

/// Chooses, for a user's own file imported without `--name-field`/`--id-field`, the attributes
/// that name and identify its features, from lists of the usual spellings (compared ignoring
/// letter case). Catalog layers never go through it: what data/layers.json declares is used.
///
/// The lists are in order of preference, so that a file with both `name` and `title` is named
/// by `name`, and one with `id` and `objectid` identified by `id`.
public enum AttributeDetection {
    /// Attributes that hold a display name: English, Spanish, Valencian/Catalan, French,
    /// Basque, then labels and titles.
    public static let nameAttributes = [
        "name", "nombre", "nom", "izena", "nom / nombre", "name_es", "name_en", "nombre_es", "denominacion",
        "denominación", "title", "titulo", "título", "títol", "titol", "label", "etiqueta",
    ]

    /// Attributes that hold an id: the plain ones, then codes, then a database's row ids.
    public static let idAttributes = [
        "id", "identificador", "ident", "codigo", "código", "codi", "code", "cod", "kodea", "ref", "gid", "fid",
        "ogc_fid", "objectid",
    ]

    /// How to choose other attributes, for the import summary.
    public static let hint = "choose others with --name-field F and --id-field F"

    /// Gives `features` names and ids from the attributes found, unless the import names the
    /// attribute (`nameField`, `idField`), and says what was chosen and what was passed over.
    ///
    /// A name attribute is used when some feature has a value for it and no feature has a name
    /// from the format itself (a KML `<name>`). An id attribute is used only when every feature
    /// has a value for it: one that is empty somewhere would leave some features with the
    /// format's id or position and others with the attribute's, which could collide; it is
    /// passed over, naming the features that lack it. Ids that repeat are left to the
    /// repeated-id policy (``LayerLoader/mergeRepeatedIDs(_:)``), which keeps different features
    /// apart and reports them.
    public static func apply(
        to features: inout [Feature], nameField: String?, idField: String?
    ) -> LoadReport.Naming {
        let keys = Set(features.flatMap(\.properties.keys)).sorted()
        var naming = LoadReport.Naming(attributes: keys)
        func present(_ candidate: String) -> String? { keys.first { $0.lowercased() == candidate } }
        func value(_ f: Feature, _ key: String) -> String? {
            guard let text = f.properties[key]?.text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty
            else { return nil }
            return text
        }
        if let nameField {
            naming.nameField = nameField
            naming.nameChosen = .option
        } else if features.contains(where: { $0.name != nil }) {
            naming.notes.append("the features are named by the format itself (a KML <name>)")
        } else {
            for candidate in nameAttributes {
                guard let key = present(candidate), features.contains(where: { value($0, key) != nil }) else {
                    continue
                }
                naming.nameField = key
                naming.nameChosen = .detected
                for i in features.indices { features[i].name = value(features[i], key) }
                let unnamed = features.filter { $0.name == nil }.count
                if unnamed > 0 { naming.notes.append("\(unnamed) of \(features.count) features have no '\(key)'") }
                break
            }
        }
        if let idField {
            naming.idField = idField
            naming.idChosen = .option
            return naming
        }
        for candidate in idAttributes {
            guard let key = present(candidate) else { continue }
            let empty = features.indices.filter { value(features[$0], key) == nil }
            guard empty.isEmpty else {
                let shown = empty.prefix(5).map { "#\($0 + 1)" }.joined(separator: ", ")
                naming.notes.append(
                    "'\(key)' was not used as the id: it is empty in \(empty.count) of \(features.count) features ("
                        + shown + (empty.count > 5 ? ", …" : "") + ")")
                continue
            }
            naming.idField = key
            naming.idChosen = .detected
            for i in features.indices { features[i].id = value(features[i], key)! }
            break
        }
        return naming
    }
}
