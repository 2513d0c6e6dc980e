import GeoqCore
import GeoqStore
import NIOCore
import PostgresNIO

/// The layers of a PostgreSQL/PostGIS store: the same layers a GeoPackage holds, in tables
/// psql and QGIS read directly.
///
/// In the address's schema `S`: `S.geoq_layers` (one row per layer, with its `version`), the
/// sequence `S.geoq_version`, and one table per layer `S."<name>"` (`fid` identity, `geoq_id`,
/// `geoq_name`, one column per property, `geom geometry(<type>, 4326)` with a GiST index).
/// Tables are made on the first write; reading a store that has none yet finds no layers.
///
/// Every committed change of a layer takes a new version from `S.geoq_version` and sends it on
/// ``PostgresAddress/changesChannel`` in the same transaction; a hand edit in SQL does the same
/// through each layer table's statement trigger (or `SELECT S.geoq_layer_changed('name')`).
///
/// Not Sendable: it owns one ``PGConnection``.
public final class PostGISLayerStore {
    public let db: PGConnection
    private var tablesReady = false

    public init(db: PGConnection) { self.db = db }

    /// Connects to `address` (checking that its database has PostGIS).
    public static func connect(to address: PostgresAddress) throws(PostGISError) -> PostGISLayerStore {
        PostGISLayerStore(db: try PGConnection.connect(to: address))
    }

    public var address: PostgresAddress { db.address }
    var schema: String { address.schema }

    /// `S."name"`.
    func table(_ name: String) -> String { "\(schema).\(LayerTablesSQL.quoted(name))" }

    /// Creates the schema, `geoq_layers`, the version sequence and the change functions unless
    /// they exist. Several processes may do it at once: a transaction-scoped advisory lock on the
    /// schema's name makes them take turns.
    public func ensureTables() throws(PostGISError) {
        guard !tablesReady else { return }
        try db.ensureSchema()
        do {
            try db.transaction {
                try db.query("SELECT pg_advisory_xact_lock(hashtext(\(schema + ".geoq_layers")))")
                let exists =
                    try db.query(
                        "SELECT to_regprocedure(\(schema + ".geoq_layer_table_changed()")) IS NOT NULL"
                    ).first.flatMap { try? $0.decode(Bool.self) } ?? false
                guard !exists else { return }
                for statement in LayerTablesSQL.setup(schema: schema, channel: address.changesChannel) {
                    try db.query(PostgresQuery(unsafeSQL: statement))
                }
            }
        } catch let error as PostGISError {
            throw error
        } catch {
            throw .connectionLost(address: address.description, reason: "\(error)")
        }
        tablesReady = true
    }

    /// Whether `S.geoq_layers` exists (a store nobody has written to has none).
    func hasLayerTable() throws(PostGISError) -> Bool {
        try db.query("SELECT to_regclass(\(schema + ".geoq_layers")) IS NOT NULL").first.flatMap {
            try? $0.decode(Bool.self)
        } ?? false
    }

    /// Every layer's version (the `S.geoq_version` value of its last change), by name: what a
    /// replica compares with what it holds to know which layers to read again.
    public func versions() throws(PostGISError) -> [String: Int64] {
        guard try hasLayerTable() else { return [:] }
        var versions: [String: Int64] = [:]
        for row in try db.query(PostgresQuery(unsafeSQL: "SELECT name, version FROM \(schema).geoq_layers")) {
            if let (name, version) = try? row.decode((String, Int64).self) { versions[name] = version }
        }
        return versions
    }

    /// Every layer with its version, sorted by name.
    public func layers() throws(PostGISError) -> [(info: LayerInfo, version: Int64)] {
        guard try hasLayerTable() else { return [] }
        let rows = try db.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT name, title, geometry_type, feature_count, min_x, min_y, max_x, max_y, source, source_crs,
                           imported_at, approximate,
                           ARRAY(SELECT jsonb_array_elements_text(notes)), version
                    FROM \(schema).geoq_layers ORDER BY name
                    """))
        var layers: [(info: LayerInfo, version: Int64)] = []
        for row in rows {
            do {
                let cells = Array(row)
                let (name, title, type, count) = try row.decode((String, String, String, Int64).self)
                let box = try (4...7).map { try cells[$0].decode(Double?.self) }
                var extent: BoundingBox?
                if let minX = box[0], let minY = box[1], let maxX = box[2], let maxY = box[3] {
                    extent = BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
                }
                let info = LayerInfo(
                    name: name, title: title, geometryType: type, featureCount: Int(count), extent: extent,
                    source: try cells[8].decode(String.self), sourceCRS: try cells[9].decode(String.self),
                    importedAt: try cells[10].decode(String.self), approximate: try cells[11].decode(String?.self),
                    notes: try cells[12].decode([String].self))
                layers.append((info, try cells[13].decode(Int64.self)))
            } catch {
                throw .queryFailed(
                    address: address.description, sqlState: "22000",
                    message: "\(schema).geoq_layers holds a row geoq cannot read: \(error)")
            }
        }
        return layers
    }

    /// The features of layer `name` in stored order (by `fid`): geometry through `ST_AsBinary`,
    /// properties as the GeoPackage reads them (double precision and integer columns as
    /// `.number`, boolean as `.bool`, NULL as `.null`, any other type as its text).
    ///
    /// Throws `StoreError` (unknown layer, bad geometry) or ``PostGISError``.
    public func features(of name: String) throws -> [Feature] {
        let columns = try propertyColumns(of: name)
        guard let columns else {
            let known = try versions().keys.sorted()
            let list = known.isEmpty ? "the store has no layers" : "layers: " + known.joined(separator: ", ")
            throw StoreError(.unknownLayer, "\(address): no layer named '\(name)' (\(list))")
        }
        let q = LayerTablesSQL.quoted
        var select = ["fid", "geoq_id", "geoq_name", "ST_AsBinary(geom)"]
        select += columns.map { column in
            switch column.kind {
            case .number: "\(q(column.name))::double precision"
            case .bool: q(column.name)
            case .text: "\(q(column.name))::text"
            }
        }
        let rows = try db.query(
            PostgresQuery(unsafeSQL: "SELECT \(select.joined(separator: ", ")) FROM \(table(name)) ORDER BY fid"))
        var features: [Feature] = []
        features.reserveCapacity(rows.count)
        for row in rows {
            let cells = Array(row)
            let fid = (try? cells[0].decode(Int64.self)) ?? 0
            let id = (try? cells[1].decode(String?.self)) ?? nil
            let geometry: Geometry
            do {
                guard let bytes = cells[3].bytes else { throw StoreError(.badGeometry, "no geometry (NULL)") }
                geometry = try WKB.decode(Array(bytes.readableBytesView))
            } catch let error as StoreError {
                throw error.within("\(address): layer '\(name)', feature '\(id ?? String(fid))' (fid \(fid))")
            }
            var properties: [String: PropertyValue] = [:]
            properties.reserveCapacity(columns.count)
            for (i, column) in columns.enumerated() {
                let cell = cells[i + 4]
                guard cell.bytes != nil else {
                    properties[column.name] = .null
                    continue
                }
                switch column.kind {
                case .number: properties[column.name] = .number(try cell.decode(Double.self))
                case .bool: properties[column.name] = .bool(try cell.decode(Bool.self))
                case .text: properties[column.name] = .string(try cell.decode(String.self))
                }
            }
            features.append(
                Feature(
                    id: id ?? String(fid), name: try cells[2].decode(String?.self), geometry: geometry,
                    properties: properties))
        }
        return features
    }

    /// How a property column reads back.
    struct ColumnRead {
        enum Kind { case number, bool, text }
        var name: String
        var kind: Kind
        /// PostgreSQL's name of the column's type (`double precision`, `text`, ...).
        var type: String
    }

    /// The property columns of layer `name` in table order; nil when there is no such layer.
    func propertyColumns(of name: String) throws(PostGISError) -> [ColumnRead]? {
        guard try hasLayerTable(),
            try !db.query(
                PostgresQuery(unsafeSQL: "SELECT 1 FROM \(schema).geoq_layers WHERE name = $1", binds: binds(name))
            ).isEmpty
        else { return nil }
        let rows = try db.query(
            """
            SELECT a.attname::text, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
            WHERE a.attrelid = to_regclass(\(table(name))) AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum
            """)
        guard !rows.isEmpty else { return nil }
        return rows.compactMap { row -> ColumnRead? in
            guard let (column, type) = try? row.decode((String, String).self),
                !["fid", "geoq_id", "geoq_name", "geom"].contains(column)
            else { return nil }
            let kind: ColumnRead.Kind =
                switch type {
                case "double precision", "real", "integer", "bigint", "smallint", "numeric": .number
                case "boolean": .bool
                default: .text
                }
            return ColumnRead(name: column, kind: kind, type: type)
        }
    }

    func binds(_ values: String...) -> PostgresBindings {
        var binds = PostgresBindings()
        for value in values { binds.append(value) }
        return binds
    }
}
