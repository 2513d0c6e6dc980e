import GeoqCore

extension GeoPackage {
    /// Writes `layer`, replacing any layer of the same name, in one transaction: after a failure
    /// or a crash the store holds either the old layer or the new one, never a mix.
    ///
    /// The table gets `fid INTEGER PRIMARY KEY AUTOINCREMENT`, `geom` (the layer's common
    /// geometry type, or GEOMETRY when mixed), `geoq_id TEXT NOT NULL`, `geoq_name TEXT` and one
    /// column per property key, in sorted key order: REAL when every non-null value is a number,
    /// BOOLEAN when every one is a Bool, else TEXT (numbers and Bools written as text). A key
    /// missing from a feature is stored as NULL and reads back as `.null`.
    ///
    /// Throws `bad-layer` for a name outside `[a-z0-9_-]+` or property keys that clash
    /// (case-insensitively) with each other or with `fid`, `geom`, `geoq_id`, `geoq_name`.
    public func replaceLayer(_ layer: StoredLayerInput) throws(StoreError) {
        try replaceLayer(layer, notes: { layer.notes })
    }

    /// ``replaceLayer(_:)`` for rows that the caller is still checking meanwhile: once the rows
    /// are written, `notes` gives the layer's notes in place of `layer.notes` (it may wait for
    /// the checks), or throws to roll everything back.
    ///
    /// `index` gives the layer's index (it may wait for it to be built), written in the same
    /// transaction right after the rows, before `notes` is asked.
    ///
    /// When `notesMayWait`, the transaction's pages go to disk before `notes` is asked, so that
    /// while the caller's checks finish the commit's writing is done, and little is left for it.
    public func replaceLayer(
        _ layer: StoredLayerInput, notes: () throws(StoreError) -> [String],
        notesMayWait: Bool = false, index: () -> LayerIndexInput? = { nil }
    ) throws(StoreError) {
        // A layer refused, here or in its transaction, leaves a new file a GeoPackage without
        // it, as it would have been had its tables been made at open.
        defer { if schemaPending { try? createSchema() } }
        let table = layer.name
        try Self.validateLayerName(table)
        let properties = try PropertyTable(layer.features)
        let columns = properties.columns
        let geometryType = Self.commonGeometryType(of: layer.features)
        let rtree = "rtree_\(table)_geom"
        let q = Self.quoted

        do {
            try connection.transaction { () throws(StoreError) in
                if schemaPending { try createSchemaIfEmpty() }
                let now =
                    try connection.scalarText("SELECT strftime('%Y-%m-%dT%H:%M:%fZ','now')")
                    ?? "1970-01-01T00:00:00.000Z"
                try createGeoqLayersTable()

                // The new rows (and index) must not take the pages the old layer frees in this
                // transaction: each such page would be read and copied to the journal first.
                // Freed at the end, they are reused by later writes without either. So the old
                // rows go last: from the layer's own table when it already has the columns the
                // new rows need (the new rows numbered on from the old), else with their table,
                // which a table of a passing name holding the new rows replaces. Renaming it
                // parses every statement of the schema twice (seven triggers a layer): 7.5-9 ms
                // for Natural Earth in a store of the catalog's layers. The R*Tree, a few pages
                // a thousand features, is replaced in place: renaming it would rename its three
                // shadow tables too.
                try dropRtrees(of: table)
                var columnSQL = "fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, geom \(geometryType), "
                columnSQL += "geoq_id TEXT NOT NULL, geoq_name TEXT"
                for column in columns { columnSQL += ", \(q(column.key)) \(column.kind.rawValue)" }
                let oldRows = try locateOldRows(of: table, columns: columnSQL)
                let rowsTable = oldRows == .ownTable ? "geoq_staging_\(table)" : table
                if case .before = oldRows {
                    try dropTriggersAndIndexes(of: table)
                } else {
                    try connection.execute("CREATE TABLE \(q(rowsTable)) (\(columnSQL))")
                }
                try connection.execute("CREATE VIRTUAL TABLE \(q(rtree)) USING rtree(id, minx, maxx, miny, maxy)")
                let extent = try insertFeatures(
                    layer, table: rowsTable, firstFID: oldRows.firstNewFID, rtree: rtree, properties: properties)
                var stagedIndex: StagedIndex?
                if let index = index() { stagedIndex = try stageLayerIndex(of: table, index) }

                try dropLayer(table, oldRows, keepingIndexChunksFrom: stagedIndex?.firstChunk ?? .max)
                if rowsTable != table {
                    // Nothing refers to the new table yet (its triggers come after): the legacy
                    // rename need not parse every trigger and view of the store in search of
                    // references (Natural Earth's rename in a store of the catalog's layers: 6 ms
                    // instead of 9.5).
                    try connection.execute("PRAGMA legacy_alter_table = ON")
                    defer { try? connection.execute("PRAGMA legacy_alter_table = OFF") }
                    try connection.execute("ALTER TABLE \(q(rowsTable)) RENAME TO \(q(table))")
                }

                let contents = try connection.prepare(
                    """
                    INSERT INTO gpkg_contents
                      (table_name, data_type, identifier, description, last_change, min_x, min_y, max_x, max_y, srs_id)
                    VALUES (?, 'features', ?, ?, ?, ?, ?, ?, ?, 4326)
                    """)
                try contents.bind(table, at: 1)
                // The identifier must be unique in a GeoPackage: the table name is (as GDAL
                // writes it); the title goes to the description and to geoq_layers.
                try contents.bind(table, at: 2)
                try contents.bind(layer.title, at: 3)
                try contents.bind(now, at: 4)
                try contents.bind(extent: extent, from: 5)
                try contents.run()

                let geometryColumns = try connection.prepare(
                    "INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', ?, 4326, 0, 0)")
                try geometryColumns.bind(table, at: 1)
                try geometryColumns.bind(geometryType, at: 2)
                try geometryColumns.run()

                // The triggers call ST_* functions that plain SQLite lacks: create them after
                // the rows (as GDAL does), so that the bulk insert does not fire them.
                try connection.execute(Self.rtreeTriggers(table: table, rtree: rtree))

                let extensions = try connection.prepare(
                    """
                    INSERT INTO gpkg_extensions VALUES (?, 'geom', 'gpkg_rtree_index',
                      'http://www.geopackage.org/spec120/#extension_rtree', 'write-only')
                    """)
                try extensions.bind(table, at: 1)
                try extensions.run()

                if let stagedIndex { try recordLayerIndex(of: table, stagedIndex) }

                if notesMayWait { try connection.writeBack() }
                let finalNotes = try notes()
                let meta = try connection.prepare("INSERT INTO geoq_layers VALUES (?, ?, ?, ?, ?, ?, ?)")
                try meta.bind(table, at: 1)
                try meta.bind(layer.title, at: 2)
                try meta.bind(layer.source, at: 3)
                try meta.bind(layer.sourceCRS, at: 4)
                try meta.bind(now, at: 5)
                try meta.bind(layer.approximate, at: 6)
                let lines = finalNotes.map { $0.replacingAll("\n", with: " ").replacingAll("\r", with: " ") }
                try meta.bind(lines.joined(separator: "\n"), at: 7)
                try meta.run()
            }
            schemaPending = false
        } catch {
            throw error.within("writing layer '\(table)'")
        }
    }

    /// How many bytes of a layer's rows or index an import writes before it has the disk start
    /// on them (``SQLiteConnection/startWriteBack()``), so that the commit does not wait for all
    /// of them at the end.
    static let writeBackStep = 16 << 20

    /// Inserts the layer's rows, numbered from `firstFID`, and their R*Tree entries; returns
    /// the layer's extent.
    private func insertFeatures(
        _ layer: StoredLayerInput, table: String, firstFID: Int64, rtree: String, properties: PropertyTable
    ) throws(StoreError) -> BoundingBox {
        let q = Self.quoted
        let columns = properties.columns
        let names = ["fid", "geom", "geoq_id", "geoq_name"] + columns.map { q($0.key) }
        let placeholders = [String](repeating: "?", count: names.count).joined(separator: ", ")
        let insert = try connection.prepare(
            "INSERT INTO \(q(table)) (\(names.joined(separator: ", "))) VALUES (\(placeholders))")
        let index = try connection.prepare("INSERT INTO \(q(rtree)) VALUES (?, ?, ?, ?, ?)")

        // One buffer for every blob, bound without a copy: blobs of megabytes are neither
        // allocated per row nor copied once more by SQLite.
        var blob: [UInt8] = []
        var extent = BoundingBox.empty
        var unsynced = 0
        for (row, feature) in layer.features.enumerated() {
            let fid = firstFID + Int64(row)
            // A column the feature has no value for stays NULL.
            insert.clearBindings()
            try insert.bind(fid, at: 1)
            // One pass over the vertices for the blob's envelope, the R*Tree and the extent.
            let box = feature.geometry.boundingBox
            extent = extent.union(box)
            GPKGGeometry.encode(feature.geometry, box: box, into: &blob)
            try insert.bind(feature.id, at: 3)
            try insert.bind(feature.name, at: 4)
            try properties.forEachValue(ofRow: row, feature) { (column, value) throws(StoreError) in
                try Self.bind(value, as: columns[column].kind, to: insert, at: Int32(column + 5))
            }
            let failure = blob.withUnsafeBytes { bytes -> StoreError? in
                do throws(StoreError) {
                    try insert.bind(borrowedBlob: bytes, at: 2)
                    try insert.run()
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure.within("feature '\(feature.id)' (row \(row + 1))") }

            if !box.isEmpty { try index.runIndexEntry(id: fid, box: box) }
            try afterRowInserted?(row + 1)
            unsynced += blob.count
            if unsynced >= Self.writeBackStep {
                connection.startWriteBack()
                unsynced = 0
            }
        }
        connection.startWriteBack()
        return extent
    }

    /// Binds a property value the way its column stores it: numbers in REAL columns, Bools in
    /// BOOLEAN ones, anything else as text; a missing value as NULL.
    static func bind(
        _ value: PropertyValue?, as kind: PropertyColumn.Kind, to statement: SQLiteConnection.Statement, at index: Int32
    ) throws(StoreError) {
        switch (value ?? .null, kind) {
        case (.null, _): try statement.bindNull(at: index)
        case (.number(let d), .real): try statement.bind(d, at: index)
        case (.bool(let b), .boolean): try statement.bind(Int64(b ? 1 : 0), at: index)
        case (let value, _): try statement.bind(value.text ?? "", at: index)
        }
    }

    /// Removes the R*Tree indexes of layer `table`'s geometry columns.
    private func dropRtrees(of table: String) throws(StoreError) {
        // A layer written by another tool may index a geometry column not called `geom`.
        let geometryColumns = try connection.prepare(
            "SELECT column_name FROM gpkg_geometry_columns WHERE table_name = ?")
        try geometryColumns.bind(table, at: 1)
        var indexes: Set<String> = ["rtree_\(table)_geom"]
        while try geometryColumns.step() { indexes.insert("rtree_\(table)_\(geometryColumns.text(at: 0) ?? "geom")") }
        for index in indexes.sorted() { try connection.execute("DROP TABLE IF EXISTS \(Self.quoted(index))") }
    }

    /// Where a layer's old rows are while its new rows are written.
    private enum OldRows: Equatable {
        /// No table of the layer's name exists.
        case none
        /// In the layer's own table, which has the columns the new rows need: the new rows go
        /// in after them, numbered from this fid on (above any fid the table ever gave out).
        case before(fid: Int64)
        /// In a table whose columns differ from the new rows' (or another tool's table of the
        /// layer's name), which a new table replaces.
        case ownTable

        /// The fid of the first new row.
        var firstNewFID: Int64 {
            if case .before(let fid) = self { fid } else { 1 }
        }
    }

    /// Where the old rows of layer `table` are, given the column definitions of its new rows.
    private func locateOldRows(of table: String, columns: String) throws(StoreError) -> OldRows {
        let definition = try connection.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
        try definition.bind(table, at: 1)
        guard try definition.step() else { return .none }
        // SQLite keeps the statement that made the table as it was written (a rename edits only
        // the name): the same columns, types and order give the same text after the name.
        let sql = definition.text(at: 0) ?? ""
        guard let open = sql.firstIndex(of: "("), sql[open...] == "(\(columns))" else { return .ownTable }
        let next = try connection.prepare(
            """
            SELECT max(coalesce((SELECT max(fid) FROM \(Self.quoted(table))), 0),
                       coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0)) + 1
            """)
        try next.bind(table, at: 1)
        guard try next.step() else { return .ownTable }
        return .before(fid: next.int64(at: 0))
    }

    /// Drops the triggers and indexes of table `table` (its R*Tree's, GDAL's feature count's,
    /// any other tool's), as dropping the table would: the new rows then go in as into a table
    /// of their own, and the layer's own triggers come back after them.
    private func dropTriggersAndIndexes(of table: String) throws(StoreError) {
        // Indexes SQLite made itself (no statement) go only with the table.
        let owned = try connection.prepare(
            "SELECT type, name FROM sqlite_master WHERE tbl_name = ? AND type IN ('trigger', 'index') AND sql NOT NULL")
        try owned.bind(table, at: 1)
        var drops: [String] = []
        while try owned.step() {
            drops.append(
                "DROP \(owned.text(at: 0) == "index" ? "INDEX" : "TRIGGER") \(Self.quoted(owned.text(at: 1) ?? ""))")
        }
        for drop in drops { try connection.execute(drop) }
    }

    /// Removes layer `table`'s old rows (``OldRows``; a table's triggers go with it), its
    /// stored index (but for the chunks numbered from `firstKept` on: a new index staged for it)
    /// and its metadata rows, including those GDAL keeps (gpkg_ogr_contents caches a feature
    /// count that would go stale). Its R*Trees are dropped before (``dropRtrees(of:)``).
    private func dropLayer(_ table: String, _ oldRows: OldRows, keepingIndexChunksFrom firstKept: Int64)
        throws(StoreError)
    {
        let q = Self.quoted
        switch oldRows {
        case .none: break
        case .before(let fid): try connection.execute("DELETE FROM \(q(table)) WHERE fid < \(fid)")
        case .ownTable: try connection.execute("DROP TABLE \(q(table))")
        }
        try deleteLayerIndex(of: table, before: firstKept)

        var metadataTables = ["gpkg_extensions", "gpkg_geometry_columns", "gpkg_contents", "geoq_layers"]
        for optional in ["gpkg_ogr_contents", "gpkg_data_columns"] where try tableExists(optional) {
            metadataTables.insert(optional, at: 0)
        }
        for metadata in metadataTables {
            let stmt = try connection.prepare("DELETE FROM \(q(metadata)) WHERE table_name = ?")
            try stmt.bind(table, at: 1)
            try stmt.run()
        }
    }

    /// The seven triggers of the GeoPackage R*Tree extension (spec 1.2/1.3, Annex F.3), which keep
    /// the index in step when another client (GDAL, QGIS) edits the table.
    static func rtreeTriggers(table: String, rtree: String) -> String {
        let t = quoted(table)
        let r = quoted(rtree)
        let name = { (suffix: String) in quoted("\(rtree)_\(suffix)") }
        let values =
            "NEW.fid, ST_MinX(NEW.geom), ST_MaxX(NEW.geom), ST_MinY(NEW.geom), ST_MaxY(NEW.geom)"
        return """
            CREATE TRIGGER \(name("insert")) AFTER INSERT ON \(t)
              WHEN (new.geom NOT NULL AND NOT ST_IsEmpty(NEW.geom))
            BEGIN
              INSERT OR REPLACE INTO \(r) VALUES (\(values));
            END;
            CREATE TRIGGER \(name("update1")) AFTER UPDATE OF geom ON \(t)
              WHEN OLD.fid = NEW.fid AND (NEW.geom NOTNULL AND NOT ST_IsEmpty(NEW.geom))
            BEGIN
              INSERT OR REPLACE INTO \(r) VALUES (\(values));
            END;
            CREATE TRIGGER \(name("update2")) AFTER UPDATE OF geom ON \(t)
              WHEN OLD.fid = NEW.fid AND (NEW.geom ISNULL OR ST_IsEmpty(NEW.geom))
            BEGIN
              DELETE FROM \(r) WHERE id = OLD.fid;
            END;
            CREATE TRIGGER \(name("update3")) AFTER UPDATE ON \(t)
              WHEN OLD.fid != NEW.fid AND (NEW.geom NOTNULL AND NOT ST_IsEmpty(NEW.geom))
            BEGIN
              DELETE FROM \(r) WHERE id = OLD.fid;
              INSERT OR REPLACE INTO \(r) VALUES (\(values));
            END;
            CREATE TRIGGER \(name("update4")) AFTER UPDATE ON \(t)
              WHEN OLD.fid != NEW.fid AND (NEW.geom ISNULL OR ST_IsEmpty(NEW.geom))
            BEGIN
              DELETE FROM \(r) WHERE id IN (OLD.fid, NEW.fid);
            END;
            CREATE TRIGGER \(name("delete")) AFTER DELETE ON \(t)
              WHEN old.geom NOT NULL
            BEGIN
              DELETE FROM \(r) WHERE id = OLD.fid;
            END;
            """
    }

    // MARK: - Layer shape

    /// How one property key is stored.
    package struct PropertyColumn: Equatable {
        package enum Kind: String {
            case real = "REAL"
            case boolean = "BOOLEAN"
            case text = "TEXT"
        }

        package var key: String
        package var kind: Kind
    }

    package static let reservedColumns: Set<String> = ["fid", "geom", "geoq_id", "geoq_name"]

    package static func validateLayerName(_ name: String) throws(StoreError) {
        let allowed = name.utf8.allSatisfy { b in
            (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D
        }
        guard !name.isEmpty, allowed else {
            throw StoreError(.badLayer, "layer name '\(name)' must be lower-case letters, digits, '_' or '-'")
        }
        for prefix in ["gpkg_", "rtree_", "sqlite_", "geoq_"] where name.hasPrefix(prefix) {
            throw StoreError(.badLayer, "layer name '\(name)' must not start with '\(prefix)' (reserved)")
        }
    }

    /// One column per property key, sorted by key, typed by the values (see ``PropertyTable``).
    package static func propertyColumns(of features: [Feature]) throws(StoreError) -> [PropertyColumn] {
        try PropertyTable(features).columns
    }

    /// SQLite folds only ASCII letters when comparing identifiers.
    package static func asciiLowercased(_ s: String) -> String {
        String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// POINT, POLYGON… when every feature has that type, else GEOMETRY.
    package static func commonGeometryType(of features: [Feature]) -> String {
        var common: String?
        for feature in features {
            let name = feature.geometry.typeName.uppercased()
            if common == nil {
                common = name
            } else if common != name {
                return "GEOMETRY"
            }
        }
        return common ?? "GEOMETRY"
    }
}

extension SQLiteConnection.Statement {
    /// Runs an `INSERT [OR REPLACE] INTO <rtree> VALUES (?, ?, ?, ?, ?)` statement for one
    /// feature's box (the columns of the GeoPackage R*Tree extension: id, minx, maxx, miny, maxy).
    func runIndexEntry(id: Int64, box: BoundingBox) throws(StoreError) {
        try bind(id, at: 1)
        try bind(box.minX, at: 2)
        try bind(box.maxX, at: 3)
        try bind(box.minY, at: 4)
        try bind(box.maxY, at: 5)
        try run()
    }

    /// Binds a layer's extent to the four parameters from `first` on, as gpkg_contents holds it
    /// (min_x, min_y, max_x, max_y): NULLs for a layer with no geometry, which has no extent.
    func bind(extent: BoundingBox, from first: Int32) throws(StoreError) {
        let hasExtent = !extent.isEmpty
        try bind(hasExtent ? extent.minX : nil, at: first)
        try bind(hasExtent ? extent.minY : nil, at: first + 1)
        try bind(hasExtent ? extent.maxX : nil, at: first + 2)
        try bind(hasExtent ? extent.maxY : nil, at: first + 3)
    }
}
