/// How a refresh of one source updates the incidents held, by (source, id).
///
/// The feed is the source's current list: an incident in it is added or updated; one of that
/// source no longer in it has ended and is dropped; incidents of every other source are left
/// exactly as they were. An empty feed is a valid answer: the source has no incidents now.
public enum IncidentMerge {
    public struct Result: Sendable {
        /// The incidents held after the refresh: those held before in their order (updated in
        /// place, ended ones dropped), then the new ones in the feed's order.
        public var incidents: [Incident]
        public var added: Int
        public var updated: Int
        public var ended: Int
    }

    /// - Parameter refreshed: the source's incidents as the feed lists them now (all of
    ///   `source`); an id told twice keeps its last telling.
    public static func merge(held: [Incident], refreshed: [Incident], source: String) -> Result {
        let fresh = Dictionary(
            refreshed.filter { $0.source == source }.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        var result = Result(incidents: [], added: 0, updated: 0, ended: 0)
        var placed = Set<String>()
        for old in held {
            guard old.source == source else {
                result.incidents.append(old)
                continue
            }
            if let new = fresh[old.id], placed.insert(old.id).inserted {
                result.incidents.append(new)
                result.updated += 1
            } else {
                result.ended += 1  // its feed no longer lists it
            }
        }
        for new in refreshed where new.source == source && placed.insert(new.id).inserted {
            result.incidents.append(fresh[new.id]!)
            result.added += 1
        }
        return result
    }
}
