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
}
