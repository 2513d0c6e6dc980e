import GeoqCore
import GeoqStore
import NIOCore
import PostgresNIO

extension PostGISLayerStore {
    /// Writes `layer`, replacing any layer of the same name, in one transaction: the table is
    /// dropped and made again, filled, indexed (GiST on `geom`), given its change trigger, and
    /// the layer's row takes a new version announced on the changes channel. A failure rolls
    /// everything back, so readers see the old layer or the new one, never a mix.
    ///
    /// The columns follow the GeoPackage's rules: one per property key in sorted order, `double
    /// precision` when every non-null value is a number, `boolean` when every one is a Bool, else
    /// `text`. Returns the layer's new version.
    ///
    /// Throws `StoreError` (`bad-layer`: the name or property keys) or ``PostGISError``.
    @discardableResult
    public func replaceLayer(_ layer: StoredLayerInput) throws -> Int64 {
        try GeoPackage.validateLayerName(layer.name)
        guard layer.name.utf8.count <= 63 else {
            throw StoreError(.badLayer, "layer name '\(layer.name)' is longer than PostgreSQL's 63 bytes")
        }
        let columns = try GeoPackage.propertyColumns(of: layer.features)
        for column in columns where column.key.utf8.count > 63 {
            throw StoreError(
                .badLayer, "property '\(column.key)' is longer than PostgreSQL's 63-byte column names")
        }
        let geometryType = GeoPackage.commonGeometryType(of: layer.features)
        try ensureTables()
        let q = LayerTablesSQL.quoted
        return try db.transaction {
            try db.query("SET LOCAL geoq.bulk_write = 'on'")
            try db.query(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(table(layer.name))"))
            var definition = [
                "fid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "geoq_id text NOT NULL", "geoq_name text",
            ]
            definition += columns.map { "\(q($0.key)) \(Self.sqlType($0.kind))" }
            definition.append("geom geometry(\(geometryType), 4326)")
            try db.query(
                PostgresQuery(
                    unsafeSQL: "CREATE TABLE \(table(layer.name)) (\(definition.joined(separator: ", ")))"))
            try insert(layer.features, into: layer.name, columns: columns)
            try db.query(
                PostgresQuery(
                    unsafeSQL:
                        "CREATE INDEX \(q(layer.name + "_geom_idx")) ON \(table(layer.name)) USING gist (geom)"))
            try db.query(PostgresQuery(unsafeSQL: LayerTablesSQL.trigger(schema: schema, table: layer.name)))
            var binds = PostgresBindings()
            binds.append(layer.name)
            binds.append(layer.title)
            binds.append(geometryType)
            binds.append(layer.source)
            binds.append(layer.sourceCRS)
            binds.append(layer.approximate)
            binds.append(layer.notes.map(Self.oneLine))
            try db.query(
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO \(schema).geoq_layers
                          (name, title, geometry_type, source, source_crs, imported_at, approximate, notes)
                        VALUES ($1, $2, $3, $4, $5, \(Self.nowText), $6, to_jsonb($7::text[]))
                        ON CONFLICT (name) DO UPDATE SET
                          title = EXCLUDED.title, geometry_type = EXCLUDED.geometry_type, source = EXCLUDED.source,
                          source_crs = EXCLUDED.source_crs, imported_at = EXCLUDED.imported_at,
                          approximate = EXCLUDED.approximate, notes = EXCLUDED.notes
                        """, binds: binds))
            return try announce(layer.name)
        }
    }

    /// Recomputes layer `name`'s count and extent, takes its new version and sends it on the
    /// changes channel (on commit). Returns the version.
    func announce(_ name: String) throws(PostGISError) -> Int64 {
        let rows = try db.query("SELECT \(unescaped: schema).geoq_layer_changed(\(name))")
        guard let version = rows.first.flatMap({ try? $0.decode(Int64.self) }) else {
            throw .queryFailed(
                address: address.description, sqlState: "22000", message: "geoq_layer_changed gave no version")
        }
        return version
    }

    /// The time as the GeoPackage writes `imported_at`: ISO 8601 UTC with milliseconds.
    static let nowText = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

    static func oneLine(_ note: String) -> String {
        note.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }

    static func sqlType(_ kind: GeoPackage.PropertyColumn.Kind) -> String {
        switch kind {
        case .real: "double precision"
        case .boolean: "boolean"
        case .text: "text"
        }
    }

    /// Rows per INSERT: each is one statement over arrays (`unnest`), not one round trip a row.
    static let batchSize = 1000

    /// Appends `features` to layer table `name` in their order.
    func insert(_ features: [Feature], into name: String, columns: [GeoPackage.PropertyColumn]) throws {
        let q = LayerTablesSQL.quoted
        var start = 0
        while start < features.count {
            let batch = features[start..<min(start + Self.batchSize, features.count)]
            var arrays = ColumnArrays(columns: columns)
            for feature in batch { arrays.append(feature) }
            let targets = ["geoq_id", "geoq_name", "geom"] + columns.map { q($0.key) }
            let sql = """
                INSERT INTO \(table(name)) (\(targets.joined(separator: ", ")))
                SELECT \(arrays.selectList(row: "u")) FROM \(arrays.unnest(firstParameter: 1)) WITH ORDINALITY
                  AS u(\(arrays.aliases.joined(separator: ", ")), ord)
                ORDER BY u.ord
                """
            let context = "writing layer '\(name)', features \(start + 1)...\(start + batch.count)"
            let result = Result { () throws(PostGISError) in
                try db.query(PostgresQuery(unsafeSQL: sql, binds: arrays.binds))
            }
            if case .failure(let error) = result { throw error.within(context) }
            start += batch.count
        }
    }
}

/// The values of a run of features, one array per column, for an `unnest` over parameters.
/// postgres-nio binds no arrays with NULL elements, so each nullable column travels with a
/// Bool array saying which elements are NULL.
struct ColumnArrays {
    let columns: [GeoPackage.PropertyColumn]
    var ids: [String] = []
    var names: [String] = []
    var nameIsNull: [Bool] = []
    var geometries: [ByteBuffer] = []
    var numbers: [[Double]]
    var bools: [[Bool]]
    var texts: [[String]]
    var isNull: [[Bool]]

    init(columns: [GeoPackage.PropertyColumn]) {
        self.columns = columns
        numbers = Array(repeating: [], count: columns.count)
        bools = Array(repeating: [], count: columns.count)
        texts = Array(repeating: [], count: columns.count)
        isNull = Array(repeating: [], count: columns.count)
    }

    mutating func append(_ feature: Feature) {
        ids.append(feature.id)
        names.append(feature.name ?? "")
        nameIsNull.append(feature.name == nil)
        geometries.append(ByteBuffer(bytes: WKB.encode(feature.geometry)))
        for (i, column) in columns.enumerated() {
            let value = feature.properties[column.key] ?? .null
            isNull[i].append(value == .null)
            switch (column.kind, value) {
            case (.real, .number(let d)): numbers[i].append(d)
            case (.real, _): numbers[i].append(0)
            case (.boolean, .bool(let b)): bools[i].append(b)
            case (.boolean, _): bools[i].append(false)
            case (.text, let value): texts[i].append(value.text ?? "")
            }
        }
    }

    /// The parameters in ``unnest(firstParameter:)``'s order.
    var binds: PostgresBindings {
        var binds = PostgresBindings()
        binds.append(ids)
        binds.append(names)
        binds.append(nameIsNull)
        binds.append(geometries)
        for (i, column) in columns.enumerated() {
            switch column.kind {
            case .real: binds.append(numbers[i])
            case .boolean: binds.append(bools[i])
            case .text: binds.append(texts[i])
            }
            binds.append(isNull[i])
        }
        return binds
    }

    /// `unnest($n::text[], ...)` over every array, parameters numbered from `firstParameter`.
    func unnest(firstParameter: Int) -> String {
        var types = ["text[]", "text[]", "boolean[]", "bytea[]"]
        for column in columns {
            switch column.kind {
            case .real: types.append("double precision[]")
            case .boolean: types.append("boolean[]")
            case .text: types.append("text[]")
            }
            types.append("boolean[]")
        }
        let parameters = types.enumerated().map { "$\(firstParameter + $0.offset)::\($0.element)" }
        return "unnest(\(parameters.joined(separator: ", ")))"
    }

    /// The column aliases of the `unnest`, in its order.
    var aliases: [String] {
        ["id", "name", "name_null", "wkb"] + columns.indices.flatMap { ["v\($0)", "n\($0)"] }
    }

    /// The values to write, in the order `geoq_id, geoq_name, geom, <properties>`.
    func selectList(row u: String) -> String {
        var items = [
            "\(u).id", "CASE WHEN \(u).name_null THEN NULL ELSE \(u).name END", "ST_GeomFromWKB(\(u).wkb, 4326)",
        ]
        items += columns.indices.map { "CASE WHEN \(u).n\($0) THEN NULL ELSE \(u).v\($0) END" }
        return items.joined(separator: ", ")
    }
}

extension PostGISError {
    /// A refused statement's error with `context` (layer, features) before the server's message.
    func within(_ context: String) -> PostGISError {
        guard case .queryFailed(let address, let state, let message) = self else { return self }
        return .queryFailed(address: address, sqlState: state, message: "\(context): \(message)")
    }
}
