/// What loading or importing a layer did to its features: counts, and each problem with the
/// feature it concerns (1-based position in the source), so a person can find it.
public struct LoadReport: Codable, Hashable, Sendable {
    /// Features in the source.
    public var read: Int
    /// Features in the layer, after invalid ones were skipped and rows sharing an id merged.
    public var written = 0
    public var repaired = 0
    public var skipped = 0
    public var problems: [Problem] = []
    /// For a user's own file: which attributes name and identify the features, and how they
    /// were chosen. Nil for catalog layers (their entry says).
    public var naming: Naming?
    /// What was done to the data on the way (rows merged or kept apart under one id, ids
    /// derived, rows without geometry skipped), as the layer's notes say it.
    public var notes: [String] = []

    public init(read: Int, written: Int = 0) {
        self.read = read
        self.written = written
    }

    public enum Action: String, Codable, Hashable, Sendable {
        case repaired, skipped, kept
    }

    public struct Problem: Codable, Hashable, Sendable, CustomStringConvertible {
        /// 1-based position of the feature in the source.
        public var feature: Int
        public var id: String
        public var name: String?
        public var reason: String
        public var action: Action

        public var description: String {
            "feature #\(feature) (id \(id)\(name.map { ", \($0)" } ?? "")) is not a valid polygon (\(reason)); \(action.rawValue)"
        }
    }

    /// Which attributes give a user's features their names and ids.
    public struct Naming: Codable, Hashable, Sendable {
        public enum Choice: String, Codable, Hashable, Sendable {
            /// Named on the command line (`--name-field`, `--id-field`).
            case option
            /// Found among the file's attributes (see ``AttributeDetection``).
            case detected
            /// The format's own (a KML `<name>`, a GeoJSON feature `id`), else the feature's
            /// 1-based position as its id and no name.
            case format
        }

        public var nameField: String?
        public var nameChosen = Choice.format
        public var idField: String?
        public var idChosen = Choice.format
        /// Every attribute of the file, sorted.
        public var attributes: [String]
        /// Attributes passed over, and features left without a name.
        public var notes: [String] = []
        /// How to choose other attributes.
        public var hint = AttributeDetection.hint

        public init(attributes: [String]) { self.attributes = attributes }
    }
}
