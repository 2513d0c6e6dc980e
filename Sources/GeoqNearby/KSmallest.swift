/// The k-th smallest of the values seen so far (infinity until k are seen): what the nearest
/// search compares a long line's lower bound with before solving it.
///
/// Keeps the k smallest in a sorted buffer it owns (k is the query's limit, small), so an
/// insertion is a few comparisons and moves.
struct KSmallest: ~Copyable {
    private let limit: Int
    private var values: UnsafeMutablePointer<Double>
    private var count = 0

    /// Starts with `values` seen; `limit` must be positive.
    init(limit: Int, values initial: some Sequence<Double>) {
        self.limit = limit
        values = .allocate(capacity: limit)
        for value in initial { insert(value) }
    }

    deinit { values.deallocate() }

    /// The k-th smallest value seen, or infinity while fewer than k.
    var kth: Double { count == limit ? values[limit - 1] : .infinity }

    /// Adds `value`; only the `limit` smallest are kept.
    mutating func insert(_ value: Double) {
        if count == limit {
            guard value < values[limit - 1] else { return }
            count -= 1
        }
        var at = count
        while at > 0 && values[at - 1] > value {
            values[at] = values[at - 1]
            at -= 1
        }
        values[at] = value
        count += 1
    }
}
