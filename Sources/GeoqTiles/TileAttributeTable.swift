/// The attributes of many features as MVT tags, numbered once: each distinct key and value
/// has one index in ``keys`` and ``values``, and each row (a feature) is a run of (key index,
/// value index) pairs. ``LayerTiler`` makes one for its whole layer, so that a tile copies its
/// features' tags instead of hashing every key and value again; ``PreparedLayer`` renumbers the
/// ones a tile uses in the order it first uses them.
public struct TileAttributeTable: Hashable, Sendable {
    public private(set) var keys: [String] = []
    public private(set) var values: [TileValue] = []
    /// Every row's pairs, row after row.
    private var tags: [UInt32] = []
    /// The end (exclusive) of each row in ``tags``.
    private var rowEnds: [Int] = []

    /// A table with one row for each list of attributes, in order.
    public init(_ rows: some Sequence<[TileFeature.Attribute]>) {
        var keyIndex: [String: UInt32] = [:]
        var valueIndex: [TileValue: UInt32] = [:]
        for attributes in rows {
            for attribute in attributes {
                let k = keyIndex[attribute.key] ?? UInt32(keys.count)
                if k == UInt32(keys.count) {
                    keyIndex[attribute.key] = k
                    keys.append(attribute.key)
                }
                let v = valueIndex[attribute.value] ?? UInt32(values.count)
                if v == UInt32(values.count) {
                    valueIndex[attribute.value] = v
                    values.append(attribute.value)
                }
                tags.append(k)
                tags.append(v)
            }
            rowEnds.append(tags.count)
        }
    }

    /// The number of rows.
    public var rowCount: Int { rowEnds.count }

    /// Row `row`'s (key index, value index) pairs, flat.
    func tags(ofRow row: Int) -> ArraySlice<UInt32> {
        tags[(row == 0 ? 0 : rowEnds[row - 1])..<rowEnds[row]]
    }

    /// The attributes of row `row`, as they were given.
    public func attributes(ofRow row: Int) -> [TileFeature.Attribute] {
        let pairs = tags(ofRow: row)
        return stride(from: pairs.startIndex, to: pairs.endIndex, by: 2).map {
            TileFeature.Attribute(key: keys[Int(pairs[$0])], value: values[Int(pairs[$0 + 1])])
        }
    }
}

/// Numbers indices of a large table in the order they are first met (0, 1, 2 ...): how a tile
/// numbers the keys and values it uses out of its layer's ``TileAttributeTable``.
///
/// An array over the whole table when that costs little beside the expected uses (filling it
/// is a memset), a dictionary otherwise: a tile of a few features out of a million-value layer
/// does not fill a million entries.
struct FirstUseNumbering {
    private var dense: [UInt32]
    private var sparse: [UInt32: UInt32] = [:]
    /// The table indices numbered so far, in the order they were first met.
    private(set) var order: [UInt32] = []

    /// - Parameters:
    ///   - universe: the size of the table numbered from.
    ///   - expectedUses: about how many indices will be asked for.
    ///   - dense: overrides the choice of an array over the table (for tests).
    init(universe: Int, expectedUses: Int, dense: Bool? = nil) {
        let useArray = dense ?? (universe <= 32 * expectedUses + 4096)
        self.dense = useArray ? [UInt32](repeating: .max, count: universe) : []
    }

    /// The number of `index`, and whether this call gave it.
    @inline(__always)
    mutating func number(_ index: UInt32) -> (number: UInt32, isNew: Bool) {
        let next = UInt32(order.count)
        if !dense.isEmpty {
            let known = dense[Int(index)]
            if known != .max { return (known, false) }
            dense[Int(index)] = next
        } else {
            if let known = sparse[index] { return (known, false) }
            sparse[index] = next
        }
        order.append(index)
        return (next, true)
    }
}
