import Foundation
import GeoqCore

/// What the readers of XML point features (``GeoRSSPointReader``, ``ServicesXMLReader``) share
/// over ``XMLElementParsing``: the naming rules, the features and warnings gathered, how many
/// items were met, the child element names seen (for the unknown-name-field error), and the
/// turning of all that into a ``FeatureCollection``.
class PointFeatureParsing: XMLElementParsing {
    let options: ReadOptions
    let naming: FeatureNaming

    var features: [Feature] = []
    var warnings: [String] = []
    /// Items (entries, services) met, with or without a point.
    var itemCount = 0
    /// Names of the child elements seen in any item.
    var elementNames: Set<String> = []

    init(source: String, options: ReadOptions) {
        self.options = options
        self.naming = FeatureNaming(options: options)
        super.init(source: source)
    }

    /// Parses `data` with this handler and gathers the features, EPSG:4326; `expected` names
    /// the document in errors, `noItems` is the warning for a document without items.
    func collection(_ data: Data, expected: String, noItems: String) throws(FormatError) -> FeatureCollection {
        try XMLElementParsing.run(self, data: data, expected: expected)
        if let nameField = options.nameField, !features.isEmpty, !elementNames.contains(nameField) {
            throw naming.unknownNameFieldError(file: source, available: elementNames.sorted())
        }
        return FeatureCollection(
            features: features, crs: .epsg(4326), source: source,
            warnings: warnings + (itemCount == 0 ? [noItems] : []))
    }
}
