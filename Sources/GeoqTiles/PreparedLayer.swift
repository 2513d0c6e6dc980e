/// A layer on its way into bytes: its features' geometry commands and tags computed once, their
/// sizes known, and which of them are kept; ``MVTEncoder`` leaves features out of it to meet
/// the size cap, then writes what is kept.
///
/// Invariant: ``bodySize`` is the size of the layer message with the kept features and the keys
/// and values they use, numbered as when every feature was kept: an upper bound of what
/// ``writeKept(to:)`` writes, which renumbers them in the order the kept features use them
/// (indices can only get smaller, so tags only shorter).
struct PreparedLayer {
    let name: String
    let extent: Int
    let features: [TileFeature]
    private(set) var keys: [String] = []
    private(set) var values: [TileValue] = []
    /// Every feature's tags (key index, value index pairs) one after the other.
    private var tags: [UInt32] = []
    private var tagEnds: [Int] = []
    /// Every feature's geometry commands one after the other.
    private var commands: [UInt32] = []
    private var commandEnds: [Int] = []
    /// The bytes of each feature's geometry commands, packed.
    private var geometrySizes: [Int] = []
    private(set) var kept: [Bool]
    private(set) var keptCount: Int
    private(set) var bodySize = 0
    /// How many tags of kept features use each key and each value.
    private var keyUses: [Int] = []
    private var valueUses: [Int] = []

    /// - Parameter numberDensely: overrides how the layer's table is renumbered (for tests; see
    ///   ``FirstUseNumbering``).
    init(_ layer: TileLayer, numberDensely: Bool? = nil) {
        name = layer.name
        extent = layer.extent
        features = layer.features
        kept = [Bool](repeating: true, count: layer.features.count)
        keptCount = layer.features.count
        let shared =
            layer.sharedAttributes
            ?? TileLayer.SharedAttributes(
                table: TileAttributeTable(layer.features.lazy.map(\.attributes)), rows: Array(layer.features.indices))
        let table = shared.table
        let tagCount = shared.rows.reduce(0) { $0 + table.tags(ofRow: $1).count }
        var keyNumbers = FirstUseNumbering(
            universe: table.keys.count, expectedUses: tagCount / 2, dense: numberDensely)
        var valueNumbers = FirstUseNumbering(
            universe: table.values.count, expectedUses: tagCount / 2, dense: numberDensely)
        tags.reserveCapacity(tagCount)
        tagEnds.reserveCapacity(features.count)
        commandEnds.reserveCapacity(features.count)
        geometrySizes.reserveCapacity(features.count)
        commands.reserveCapacity(features.reduce(0) { $0 + $1.geometry.commandCount })
        for (feature, row) in zip(features, shared.rows) {
            let pairs = table.tags(ofRow: row)
            var i = pairs.startIndex
            while i < pairs.endIndex {
                let (k, newKey) = keyNumbers.number(pairs[i])
                if newKey {
                    keys.append(table.keys[Int(pairs[i])])
                    keyUses.append(0)
                }
                keyUses[Int(k)] += 1
                let (v, newValue) = valueNumbers.number(pairs[i + 1])
                if newValue {
                    values.append(table.values[Int(pairs[i + 1])])
                    valueUses.append(0)
                }
                valueUses[Int(v)] += 1
                tags.append(k)
                tags.append(v)
                i += 2
            }
            tagEnds.append(tags.count)
            let start = commands.count
            feature.geometry.appendCommands(to: &commands)
            commandEnds.append(commands.count)
            geometrySizes.append(ProtobufWriter.packedSize(commands[start...]))
        }
        var size = fixedSize(keys: keys, values: values)
        for f in features.indices { size += ProtobufWriter.embeddedSize(featureSize(f, tags: tags(of: f))) }
        bodySize = size
    }

    /// The bytes of the fields other than the features.
    private func fixedSize(keys: [String], values: [TileValue]) -> Int {
        var size = 2  // version
        size += ProtobufWriter.embeddedSize(name.utf8.count)
        for key in keys { size += ProtobufWriter.embeddedSize(key.utf8.count) }
        for value in values { size += ProtobufWriter.embeddedSize(Self.valueSize(value)) }
        size += 1 + ProtobufWriter.varintSize(UInt64(extent))
        return size
    }

    private func tags(of f: Int) -> ArraySlice<UInt32> {
        tags[(f == 0 ? 0 : tagEnds[f - 1])..<tagEnds[f]]
    }

    private func commands(of f: Int) -> ArraySlice<UInt32> {
        commands[(f == 0 ? 0 : commandEnds[f - 1])..<commandEnds[f]]
    }

    /// The bytes of feature `f`'s message with `tags`.
    private func featureSize(_ f: Int, tags: ArraySlice<UInt32>) -> Int {
        var size = 2  // type
        if let id = features[f].id { size += 1 + ProtobufWriter.varintSize(id) }
        if !tags.isEmpty { size += ProtobufWriter.embeddedSize(ProtobufWriter.packedSize(tags)) }
        if geometrySizes[f] > 0 { size += ProtobufWriter.embeddedSize(geometrySizes[f]) }
        return size
    }

    /// Bytes of geometry per square grid unit covered (see ``MVTEncoder``).
    func density(of f: Int) -> Double {
        Double(geometrySizes[f]) / features[f].geometry.coveredArea
    }

    /// Leaves feature `f` out of the bytes.
    mutating func leaveOut(_ f: Int) {
        guard kept[f] else { return }
        kept[f] = false
        keptCount -= 1
        let featureTags = tags(of: f)
        bodySize -= ProtobufWriter.embeddedSize(featureSize(f, tags: featureTags))
        var i = featureTags.startIndex
        while i < featureTags.endIndex {
            let k = Int(featureTags[i]), v = Int(featureTags[i + 1])
            keyUses[k] -= 1
            if keyUses[k] == 0 { bodySize -= ProtobufWriter.embeddedSize(keys[k].utf8.count) }
            valueUses[v] -= 1
            if valueUses[v] == 0 { bodySize -= ProtobufWriter.embeddedSize(Self.valueSize(values[v])) }
            i += 2
        }
    }

    /// Writes the layer message's content with the kept features, and the keys and values they
    /// use, renumbered in the order of first use.
    func writeKept(to out: inout ProtobufWriter) {
        let noIndex = UInt32.max
        var keyMap = [UInt32](repeating: noIndex, count: keys.count)
        var valueMap = [UInt32](repeating: noIndex, count: values.count)
        var keptKeys: [Int] = []
        var keptValues: [Int] = []
        var renumbered = tags
        for f in features.indices where kept[f] {
            let range = tags(of: f).indices
            var i = range.lowerBound
            while i < range.upperBound {
                let k = Int(tags[i]), v = Int(tags[i + 1])
                if keyMap[k] == noIndex {
                    keyMap[k] = UInt32(keptKeys.count)
                    keptKeys.append(k)
                }
                if valueMap[v] == noIndex {
                    valueMap[v] = UInt32(keptValues.count)
                    keptValues.append(v)
                }
                renumbered[i] = keyMap[k]
                renumbered[i + 1] = valueMap[v]
                i += 2
            }
        }
        out.bytes.reserveCapacity(bodySize)
        out.varintField(15, 2)
        out.stringField(1, name)
        for f in features.indices where kept[f] {
            let featureTags = renumbered[tags(of: f).indices]
            out.key(2, .lengthDelimited)
            out.varint(UInt64(featureSize(f, tags: featureTags)))
            if let id = features[f].id { out.varintField(1, id) }
            out.packedField(2, featureTags)
            out.varintField(3, UInt64(features[f].geometry.kind.rawValue))
            out.packedField(4, commands(of: f))
        }
        for k in keptKeys { out.stringField(3, keys[k]) }
        for v in keptValues {
            out.key(4, .lengthDelimited)
            out.varint(UInt64(Self.valueSize(values[v])))
            Self.writeValue(values[v], to: &out)
        }
        out.varintField(5, UInt64(extent))
    }

    /// The bytes of the `Value` message of `value`.
    static func valueSize(_ value: TileValue) -> Int {
        switch value {
        case .string(let s): ProtobufWriter.embeddedSize(s.utf8.count)
        case .float: 5
        case .double: 9
        case .int(let i): 1 + ProtobufWriter.varintSize(UInt64(bitPattern: i))
        case .uint(let u): 1 + ProtobufWriter.varintSize(u)
        case .sint(let i): 1 + ProtobufWriter.varintSize(Zigzag.encode64(i))
        case .bool: 2
        }
    }

    static func writeValue(_ value: TileValue, to out: inout ProtobufWriter) {
        let field = value.fieldNumber
        switch value {
        case .string(let s): out.stringField(field, s)
        case .float(let f):
            out.key(field, .fixed32)
            out.fixed32(f.bitPattern)
        case .double(let d):
            out.key(field, .fixed64)
            out.fixed64(d.bitPattern)
        case .int(let i): out.varintField(field, UInt64(bitPattern: i))
        case .uint(let u): out.varintField(field, u)
        case .sint(let i): out.varintField(field, Zigzag.encode64(i))
        case .bool(let b): out.varintField(field, b ? 1 : 0)
        }
    }
}
