import GeoqCore

/// A layer's property columns, worked out from its features' values, and the column of every
/// value of every feature: each value's name is looked up once, while the columns are typed,
/// and the rows are then written without looking any name up again.
///
/// Why: a layer of many columns has tens of thousands of values (Natural Earth's countries:
/// 169 on each of 250 rows), and looking each column's value up in each row's dictionary took
/// 2.5 ms there.
///
/// Invariant: `placement[rowStarts[i] ..< rowStarts[i + 1]]` holds, for each property of
/// feature `i` in the order its dictionary lists them, the index of its column in `columns`.
struct PropertyTable {
    /// One column per property name, sorted by name: REAL when every non-null value is a
    /// number, BOOLEAN when every one is a Bool, else TEXT.
    let columns: [GeoPackage.PropertyColumn]
    private let placement: [Int32]
    private let rowStarts: [Int]

    /// Throws `bad-layer` for names that clash (case-insensitively) with each other or with
    /// `fid`, `geom`, `geoq_id`, `geoq_name`.
    init(_ features: [Feature]) throws(StoreError) {
        // Names numbered in the order first seen, and each one's kind (nil: only nulls so far).
        var numbering: [String: Int] = [:]
        var names: [String] = []
        var kinds: [GeoPackage.PropertyColumn.Kind?] = []
        var numbers: [Int32] = []
        var rowStarts = [0]
        rowStarts.reserveCapacity(features.count + 1)
        // The names of the rows before, by their place in a row's dictionary: the rows of one
        // reader usually list the same names in the same order (a copy of one dictionary keeps
        // its order), and comparing a name with the one in its place costs less than hashing it.
        var lastNames: [String] = []
        var lastNumbers: [Int] = []
        for feature in features {
            for (place, (key, value)) in feature.properties.enumerated() {
                let number: Int
                if place < lastNames.count && lastNames[place] == key {
                    number = lastNumbers[place]
                } else {
                    number = numbering[key, default: names.count]
                    if number == names.count {
                        numbering[key] = number
                        names.append(key)
                        kinds.append(nil)
                    }
                    if place < lastNames.count {
                        (lastNames[place], lastNumbers[place]) = (key, number)
                    } else {
                        lastNames.append(key)
                        lastNumbers.append(number)
                    }
                }
                Self.widen(&kinds[number], by: value)
                numbers.append(Int32(number))
            }
            rowStarts.append(numbers.count)
        }
        // Columns in name order; `position[n]` is where name number n went.
        let order = names.indices.sorted { names[$0] < names[$1] }
        var position = [Int32](repeating: 0, count: order.count)
        for (column, number) in order.enumerated() { position[number] = Int32(column) }

        var seen: [String: String] = [:]  // ASCII-lower-cased name -> key
        for name in GeoPackage.reservedColumns { seen[name] = name }
        var columns: [GeoPackage.PropertyColumn] = []
        columns.reserveCapacity(order.count)
        for number in order {
            let key = names[number]
            let folded = GeoPackage.asciiLowercased(key)
            if let other = seen[folded] {
                throw StoreError(
                    .badLayer,
                    "property '\(key)' clashes with column '\(other)' (SQLite column names ignore ASCII case)")
            }
            seen[folded] = key
            columns.append(GeoPackage.PropertyColumn(key: key, kind: kinds[number] ?? .text))
        }
        self.columns = columns
        self.placement = numbers.map { position[Int($0)] }
        self.rowStarts = rowStarts
    }

    /// Calls `body` with the column index and the value of each property of feature `row`,
    /// which must be the very feature (unchanged) that was at that row when the table was made:
    /// its properties are walked in the same order as then.
    func forEachValue(
        ofRow row: Int, _ feature: Feature, _ body: (Int, PropertyValue) throws(StoreError) -> Void
    ) throws(StoreError) {
        var k = rowStarts[row]
        precondition(rowStarts[row + 1] - k == feature.properties.count, "a feature other than the table's")
        for (_, value) in feature.properties {
            try body(Int(placement[k]), value)
            k += 1
        }
    }

    /// The kind of a column whose values so far were of `kind` (nil: only nulls), after
    /// `value`: values of two kinds make a TEXT column.
    private static func widen(_ kind: inout GeoPackage.PropertyColumn.Kind?, by value: PropertyValue) {
        let new: GeoPackage.PropertyColumn.Kind
        switch value {
        case .null: return
        case .number: new = .real
        case .bool: new = .boolean
        case .string: new = .text
        }
        if let old = kind, old != new { kind = .text } else { kind = new }
    }
}
