import GeoqCore

extension GeoPackage {
    /// What ``replacePartition(of:column:value:source:notes:with:)`` changed.
    public struct PartitionReplacement: Sendable, Hashable {
        /// Rows of the partition rewritten in place (they keep their fid, so their position).
        public var updated: Int
        /// Rows added after every other row, in the order given.
        public var inserted: Int
        /// Rows of the partition no longer given.
        public var deleted: Int
        /// The layer's rows after the replacement, every partition counted.
        public var rowCount: Int

        package init(updated: Int, inserted: Int, deleted: Int, rowCount: Int) {
            self.updated = updated
            self.inserted = inserted
            self.deleted = deleted
            self.rowCount = rowCount
        }
    }

    /// Replaces, in one transaction, the rows of layer `name` whose text column `column` holds
    /// `value` (its partition) with the features `makeFeatures` returns, leaving every other row
    /// exactly as it was (same fid, same bytes) and without reading it back into features.
    ///
    /// `makeFeatures` gets the `geoq_id`s of the partition's rows in stored order and returns the
    /// partition's new features, each of them with `column` = `value`. A feature whose id a row
    /// of the partition has rewrites the first such row in place; a row whose id no feature has
    /// is deleted; the other features are appended. The extent (gpkg_contents), the R*Tree
    /// index, `last_change` and the layer's `geoq_layers` row (source, import time, notes) follow.
    ///
    /// Returns nil, having written nothing, when the layer
    /// cannot take the partition as it is: no such layer, or not one geoq wrote; no column
    /// `column`, or rows with no value in it; a property whose column is of another kind or
    /// spelled in another case; geometries its declared geometry type does not allow. The
    /// caller then writes the whole layer with ``replaceLayer(_:)``. A property column the
    /// layer lacks is added (NULL in the other rows, which reads back as `.null`).
    ///
    /// Throws `bad-layer` for a feature outside the partition or with clashing property keys.
    public func replacePartition(
        of name: String, column: String, value: String, source: String, notes: [String],
        with makeFeatures: ([String]) -> [Feature]
    ) throws(StoreError) -> PartitionReplacement? {
        do {
            return try connection.transaction { () throws(StoreError) -> PartitionReplacement? in
                guard let layout = try partitionLayout(of: name, column: column) else { return nil }
                let q = Self.quoted
                let rows = try connection.prepare(
                    "SELECT fid, geoq_id, geom FROM \(q(name)) WHERE \(q(column)) = ? ORDER BY fid")
                try rows.bind(value, at: 1)
                var held: [HeldRow] = []
                while try rows.step() {
                    let geometry = rows.isNull(at: 2) ? nil : rows.withBlob(at: 2) { [UInt8]($0) }
                    held.append(HeldRow(fid: rows.int64(at: 0), id: rows.text(at: 1) ?? "", geometry: geometry))
                }

                let features = makeFeatures(held.map(\.id))
                for feature in features where feature.properties[column] != .string(value) {
                    throw StoreError(
                        .badLayer, "feature '\(feature.id)' does not have \(column) = '\(value)' (its partition)")
                }
                let wanted = try Self.propertyColumns(of: features)
                var added: [PropertyColumn] = []
                for column in wanted {
                    switch layout.columns.first(where: {
                        Self.asciiLowercased($0.key) == Self.asciiLowercased(column.key)
                    })
                    {
                    case nil: added.append(column)
                    case let existing? where existing == column: break
                    default: return nil
                    }
                }
                let geometryType = Self.commonGeometryType(of: features)
                guard layout.geometryType == "GEOMETRY" || features.isEmpty || geometryType == layout.geometryType
                else { return nil }

                for column in added {
                    try connection.execute(
                        "ALTER TABLE \(q(name)) ADD COLUMN \(q(column.key)) \(column.kind.rawValue)")
                }
                // The index triggers call ST_* functions that plain SQLite lacks: set them aside
                // while the rows change (the index is kept here), then put them back as they were.
                let triggers = try connection.prepare(
                    "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? AND sql LIKE '%ST\\_%' ESCAPE '\\'"
                )
                try triggers.bind(name, at: 1)
                var setAside: [(name: String, sql: String)] = []
                while try triggers.step() { setAside.append((triggers.text(at: 0) ?? "", triggers.text(at: 1) ?? "")) }
                for trigger in setAside { try connection.execute("DROP TRIGGER \(q(trigger.name))") }

                let result = try writePartition(
                    features, held: held, table: name, columns: layout.columns + added)

                for trigger in setAside { try connection.execute(trigger.sql) }
                try finishPartition(
                    of: name, column: column, value: value, features: features, source: source, notes: notes)
                return result
            }
        } catch {
            throw error.within("writing layer '\(name)'")
        }
    }

    /// The layer's property columns and geometry type, when it is a layer geoq wrote whose
    /// rows all have a value in `column`; else nil.
    private func partitionLayout(
        of table: String, column: String
    ) throws(StoreError) -> (columns: [PropertyColumn], geometryType: String)? {
        let q = Self.quoted
        guard try tableExists("geoq_layers") else { return nil }
        let meta = try connection.prepare(
            """
            SELECT g.geometry_type_name, g.column_name FROM geoq_layers l
            JOIN gpkg_contents c ON c.table_name = l.table_name AND c.data_type = 'features'
            JOIN gpkg_geometry_columns g ON g.table_name = l.table_name
            WHERE l.table_name = ?
            """)
        try meta.bind(table, at: 1)
        guard try meta.step(), meta.text(at: 1) == "geom", let geometryType = meta.text(at: 0)?.uppercased() else {
            return nil
        }
        let info = try connection.prepare("PRAGMA table_info(\(q(table)))")
        var columns: [PropertyColumn] = []
        var names: Set<String> = []
        while try info.step() {
            let name = info.text(at: 1) ?? ""
            names.insert(name)
            guard !Self.reservedColumns.contains(name) else { continue }
            guard let kind = PropertyColumn.Kind(rawValue: (info.text(at: 2) ?? "").uppercased()) else { return nil }
            columns.append(PropertyColumn(key: name, kind: kind))
        }
        guard Self.reservedColumns.isSubset(of: names), columns.contains(where: { $0.key == column }) else {
            return nil
        }
        let unpartitioned = try connection.prepare(
            "SELECT 1 FROM \(q(table)) WHERE \(q(column)) IS NULL OR \(q(column)) = '' LIMIT 1")
        return try unpartitioned.step() ? nil : (columns, geometryType)
    }

    /// A row of the partition before the replacement.
    private struct HeldRow {
        var fid: Int64
        var id: String
        /// The stored geometry blob: a row rewritten with the same bytes keeps its index entry.
        var geometry: [UInt8]?
    }

    /// Rewrites the partition's rows: `held` are its rows before, in stored order.
    private func writePartition(
        _ features: [Feature], held: [HeldRow], table: String, columns: [PropertyColumn]
    ) throws(StoreError) -> PartitionReplacement {
        let q = Self.quoted
        let rtree = q("rtree_\(table)_geom")
        var firstRow: [String: Int] = [:]  // id -> index in held
        for (n, row) in held.enumerated() where firstRow[row.id] == nil { firstRow[row.id] = n }

        let values = ["geom", "geoq_id", "geoq_name"] + columns.map { q($0.key) }
        let update = try connection.prepare(
            "UPDATE \(q(table)) SET \(values.map { "\($0) = ?" }.joined(separator: ", ")) WHERE fid = ?")
        let insert = try connection.prepare(
            "INSERT INTO \(q(table)) (\(values.joined(separator: ", "))) VALUES (\(values.map { _ in "?" }.joined(separator: ", ")))"
        )
        let index = try connection.prepare("INSERT OR REPLACE INTO \(rtree) VALUES (?, ?, ?, ?, ?)")
        let unindex = try connection.prepare("DELETE FROM \(rtree) WHERE id = ?")

        var result = PartitionReplacement(updated: 0, inserted: 0, deleted: 0, rowCount: 0)
        var kept: Set<Int64> = []
        for (row, feature) in features.enumerated() {
            let old = firstRow.removeValue(forKey: feature.id).map { held[$0] }
            let fid = old?.fid
            let statement = fid == nil ? insert : update
            let blob = GPKGGeometry.encode(feature.geometry)
            try statement.bind(blob: blob, at: 1)
            try statement.bind(feature.id, at: 2)
            try statement.bind(feature.name, at: 3)
            for (i, column) in columns.enumerated() {
                try Self.bind(feature.properties[column.key], as: column.kind, to: statement, at: Int32(i + 4))
            }
            if let fid { try statement.bind(fid, at: Int32(columns.count + 4)) }
            do {
                try statement.run()
            } catch {
                throw error.within("feature '\(feature.id)' (row \(row + 1) of the partition)")
            }
            let rowID = fid ?? connection.lastInsertRowID
            if let fid {
                kept.insert(fid)
                result.updated += 1
            } else {
                result.inserted += 1
            }
            // Replacing an R*Tree entry costs more than the row itself: most updates of a feed
            // leave the position as it was, and the same bytes mean the same box.
            let box = feature.geometry.boundingBox
            if let old, old.geometry == blob {
                // the entry (or its absence, for an empty geometry) is already right
            } else if box.isEmpty {
                try unindex.bind(rowID, at: 1)
                try unindex.run()
            } else {
                try index.runIndexEntry(id: rowID, box: box)
            }
            try afterRowInserted?(row + 1)
        }
        let delete = try connection.prepare("DELETE FROM \(q(table)) WHERE fid = ?")
        for row in held where !kept.contains(row.fid) {
            try delete.bind(row.fid, at: 1)
            try delete.run()
            try unindex.bind(row.fid, at: 1)
            try unindex.run()
            result.deleted += 1
        }
        result.rowCount = Int(try connection.scalarInt("SELECT count(*) FROM \(q(table))") ?? 0)
        return result
    }

    /// The layer's metadata after a partition changed: the extent over every row (the other
    /// partitions' geometries decoded, the new ones given), `last_change`, the import time,
    /// source and notes, and GDAL's cached feature count where there is one.
    private func finishPartition(
        of table: String, column: String, value: String, features: [Feature], source: String, notes: [String]
    ) throws(StoreError) {
        let q = Self.quoted
        var extent = features.reduce(BoundingBox.empty) { $0.union($1.geometry.boundingBox) }
        let others = try connection.prepare(
            "SELECT fid, geom FROM \(q(table)) WHERE \(q(column)) <> ? AND geom NOT NULL")
        try others.bind(value, at: 1)
        while try others.step() {
            do throws(StoreError) {
                let geometry = try others.withBlob(at: 1) { (bytes) throws(StoreError) -> Geometry in
                    try GPKGGeometry.decode(bytes)
                }
                extent = extent.union(geometry.boundingBox)
            } catch {
                throw error.within("feature fid \(others.int64(at: 0))")
            }
        }
        let now =
            try connection.scalarText("SELECT strftime('%Y-%m-%dT%H:%M:%fZ','now')") ?? "1970-01-01T00:00:00.000Z"
        let contents = try connection.prepare(
            "UPDATE gpkg_contents SET last_change = ?, min_x = ?, min_y = ?, max_x = ?, max_y = ? WHERE table_name = ?")
        try contents.bind(now, at: 1)
        try contents.bind(extent: extent, from: 2)
        try contents.bind(table, at: 6)
        try contents.run()

        let meta = try connection.prepare(
            "UPDATE geoq_layers SET source = ?, imported_at = ?, notes = ? WHERE table_name = ?")
        try meta.bind(source, at: 1)
        try meta.bind(now, at: 2)
        try meta.bind(
            notes.map { $0.replacingAll("\n", with: " ").replacingAll("\r", with: " ") }.joined(separator: "\n"), at: 3)
        try meta.bind(table, at: 4)
        try meta.run()

        if try tableExists("gpkg_ogr_contents") {
            let count = try connection.prepare(
                "UPDATE gpkg_ogr_contents SET feature_count = (SELECT count(*) FROM \(q(table))) WHERE lower(table_name) = lower(?)"
            )
            try count.bind(table, at: 1)
            try count.run()
        }
    }
}
