/// How a refresh of one feed updates the incidents held: by id.
///
/// The feed is the city's current list for its type: an incident in it is added or updated (a
/// specific type is not overwritten by the all-incidents feed, type 3); one of the feed's type that
/// is no longer in it has ended and is dropped; incidents of other types are untouched. An empty
/// feed is a valid answer: no incidents of that type.
public enum IncidentMerge {
    public static func merge(held: [Incident], refreshed: [Incident], feedType: IncidentType) -> [Incident] {
        let fresh = Dictionary(refreshed.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        var result: [Incident] = []
        var placed = Set<String>()
        for old in held {
            if var new = fresh[old.id] {
                if feedType == .all && old.type != .all { new.type = old.type }
                result.append(new)
                placed.insert(old.id)
            } else if old.type == feedType || feedType == .all {
                continue  // ended: its feed no longer lists it
            } else {
                result.append(old)
            }
        }
        for new in refreshed where !placed.contains(new.id) {
            placed.insert(new.id)
            result.append(fresh[new.id]!)
        }
        return result
    }
}
