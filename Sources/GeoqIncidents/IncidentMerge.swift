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
        // Each id's last telling, by its position in `refreshed`, and whether it is placed yet:
        // positions rather than copies, for feeds of thousands.
        var last = [String: Int](minimumCapacity: refreshed.count)
        for (n, incident) in refreshed.enumerated() where incident.source == source { last[incident.id] = n }
        var placed = [Bool](repeating: false, count: refreshed.count)
        var result = Result(incidents: [], added: 0, updated: 0, ended: 0)
        result.incidents.reserveCapacity(held.count + last.count)
        for old in held {
            guard old.source == source else {
                result.incidents.append(old)
                continue
            }
            if let n = last[old.id], !placed[n] {
                placed[n] = true
                result.incidents.append(refreshed[n])
                result.updated += 1
            } else {
                result.ended += 1  // its feed no longer lists it
            }
        }
        for new in refreshed where new.source == source {
            let n = last[new.id]!
            guard !placed[n] else { continue }
            placed[n] = true
            result.incidents.append(refreshed[n])
            result.added += 1
        }
        return result
    }
}
