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
        let plan = Plan(
            heldIDs: held.lazy.filter { $0.source == source }.map(\.id), refreshed: refreshed, source: source)
        var result = Result(incidents: [], added: plan.added.count, updated: 0, ended: 0)
        result.incidents.reserveCapacity(held.count + plan.added.count)
        var next = plan.updates.makeIterator()
        for old in held {
            guard old.source == source else {
                result.incidents.append(old)
                continue
            }
            if let n = next.next()! {
                result.incidents.append(refreshed[n])
                result.updated += 1
            } else {
                result.ended += 1
            }
        }
        result.incidents += plan.added.map { refreshed[$0] }
        return result
    }

    /// The same merge when only the ids of the source's held incidents are known (in held
    /// order), as a store that keeps other sources' rows untouched needs it: `incidents` are
    /// then the source's incidents only, the updated ones in held order, then the new ones.
    public static func merge(heldIDs: [String], refreshed: [Incident], source: String) -> Result {
        let plan = Plan(heldIDs: heldIDs, refreshed: refreshed, source: source)
        let updated = plan.updates.compactMap { $0 }
        return Result(
            incidents: updated.map { refreshed[$0] } + plan.added.map { refreshed[$0] }, added: plan.added.count,
            updated: updated.count, ended: plan.updates.count - updated.count)
    }

    /// Positions in `refreshed`, rather than copies, for feeds of thousands.
    private struct Plan {
        /// For each held incident of the source, in order: the telling that updates it, or nil
        /// when it has ended (its feed no longer lists it, or an earlier one of the same id
        /// took the update).
        var updates: [Int?] = []
        /// The tellings of ids not held, in the feed's order.
        var added: [Int] = []

        init(heldIDs: some Sequence<String>, refreshed: [Incident], source: String) {
            // Each id's last telling, and whether it is placed yet.
            var last = [String: Int](minimumCapacity: refreshed.count)
            for (n, incident) in refreshed.enumerated() where incident.source == source { last[incident.id] = n }
            var placed = [Bool](repeating: false, count: refreshed.count)
            for id in heldIDs {
                if let n = last[id], !placed[n] {
                    placed[n] = true
                    updates.append(n)
                } else {
                    updates.append(nil)
                }
            }
            for new in refreshed where new.source == source {
                let n = last[new.id]!
                guard !placed[n] else { continue }
                placed[n] = true
                added.append(n)
            }
        }
    }
}
