import GeoqCore
import GeoqStore
import NIOCore
import PostgresNIO

extension PostGISLayerStore {
    /// Replaces, in one transaction, the rows of layer `name` whose text column `column` holds
    /// `value` (its partition) with the features `makeFeatures` returns, leaving every other row
    /// as it was: the semantics of `GeoPackage.replacePartition`.
    ///
    /// `makeFeatures` gets the `geoq_id`s of the partition's rows in stored order. A feature whose
    /// id a row of the partition has rewrites the first such row in place (same `fid`, so same
    /// position); a row whose id no feature has is deleted; the other features are appended.
    /// The layer's row (source, import time, notes, count, extent) follows, and the layer takes
    /// one new version, announced once.
    ///
    /// Returns nil, having written nothing, when the layer cannot take the partition as it is (no
    /// such layer; no text column `column`, or rows with no value in it; a property column of
    /// another type or spelled in another case; geometries of another type than the column's):
    /// the caller then writes the whole layer with ``replaceLayer(_:)``.
    public func replacePartition(
        of name: String, column: String, value: String, source: String, notes: [String],
        with makeFeatures: ([String]) -> [Feature]
    ) throws -> GeoPackage.PartitionReplacement? {
        guard try hasLayerTable() else { return nil }
        try ensureTables()
        let q = LayerTablesSQL.quoted
        return try db.transaction { () throws -> GeoPackage.PartitionReplacement? in
            // Writers of one layer take turns; readers go on reading the committed rows.
            guard
                let declared = try db.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT geometry_type FROM \(schema).geoq_layers WHERE name = $1 FOR UPDATE",
                        binds: binds(name))
                ).first.flatMap({ try? $0.decode(String.self) }),
                let existing = try propertyColumns(of: name),
                existing.contains(where: { $0.name == column && $0.type == "text" })
            else { return nil }
            try db.query("SET LOCAL geoq.bulk_write = 'on'")
            let unpartitioned = try db.query(
                PostgresQuery(
                    unsafeSQL: "SELECT 1 FROM \(table(name)) WHERE \(q(column)) IS NULL OR \(q(column)) = '' LIMIT 1"))
            guard unpartitioned.isEmpty else { return nil }

            var held: [(fid: Int64, id: String)] = []
            for row in try db.query(
                PostgresQuery(
                    unsafeSQL: "SELECT fid, geoq_id FROM \(table(name)) WHERE \(q(column)) = $1 ORDER BY fid",
                    binds: binds(value)))
            {
                held.append(try row.decode((Int64, String).self))
            }
            let features = makeFeatures(held.map(\.id))
            for feature in features where feature.properties[column] != .string(value) {
                throw StoreError(
                    .badLayer, "feature '\(feature.id)' does not have \(column) = '\(value)' (its partition)")
            }
            let wanted = try GeoPackage.propertyColumns(of: features)
            var added: [GeoPackage.PropertyColumn] = []
            for column in wanted {
                let folded = GeoPackage.asciiLowercased(column.key)
                switch existing.first(where: { GeoPackage.asciiLowercased($0.name) == folded }) {
                case nil: added.append(column)
                case let old? where old.name == column.key && old.type == Self.sqlType(column.kind): break
                default: return nil
                }
            }
            let geometryType = GeoPackage.commonGeometryType(of: features)
            guard declared == "GEOMETRY" || features.isEmpty || geometryType == declared else { return nil }
            for column in added {
                try db.query(
                    PostgresQuery(
                        unsafeSQL:
                            "ALTER TABLE \(table(name)) ADD COLUMN \(q(column.key)) \(Self.sqlType(column.kind))"))
            }
            let columns = wanted

            var firstRow: [String: Int64] = [:]
            for row in held.reversed() { firstRow[row.id] = row.fid }
            var updates: [Feature] = []
            var updateFIDs: [Int64] = []
            var inserts: [Feature] = []
            for feature in features {
                if let fid = firstRow.removeValue(forKey: feature.id) {
                    updates.append(feature)
                    updateFIDs.append(fid)
                } else {
                    inserts.append(feature)
                }
            }
            let kept = Set(updateFIDs)
            let deleted = held.map(\.fid).filter { !kept.contains($0) }

            try update(updates, fids: updateFIDs, in: name, columns: columns)
            try insert(inserts, into: name, columns: columns)
            if !deleted.isEmpty {
                var binds = PostgresBindings()
                binds.append(deleted)
                try db.query(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(table(name)) WHERE fid = ANY($1::bigint[])", binds: binds))
            }
            var meta = PostgresBindings()
            meta.append(name)
            meta.append(source)
            meta.append(notes.map(Self.oneLine))
            try db.query(
                PostgresQuery(
                    unsafeSQL: """
                        UPDATE \(schema).geoq_layers
                        SET source = $2, notes = to_jsonb($3::text[]), imported_at = \(Self.nowText)
                        WHERE name = $1
                        """, binds: meta))
            _ = try announce(name)
            let count =
                try db.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table(name))")).first.flatMap {
                    try? $0.decode(Int64.self)
                } ?? 0
            return GeoPackage.PartitionReplacement(
                updated: updates.count, inserted: inserts.count, deleted: deleted.count, rowCount: Int(count))
        }
    }

    /// Rewrites the rows `fids` with `features` (the same count, in step).
    private func update(
        _ features: [Feature], fids: [Int64], in name: String, columns: [GeoPackage.PropertyColumn]
    ) throws {
        let q = LayerTablesSQL.quoted
        var start = 0
        while start < features.count {
            let end = min(start + Self.batchSize, features.count)
            var arrays = ColumnArrays(columns: columns)
            for feature in features[start..<end] { arrays.append(feature) }
            var binds = arrays.binds
            binds.append(Array(fids[start..<end]))
            let fidParameter = binds.count
            let targets = ["geoq_id", "geoq_name", "geom"] + columns.map { q($0.key) }
            let sql = """
                UPDATE \(table(name)) AS t SET (\(targets.joined(separator: ", "))) = (\(arrays.selectList(row: "u")))
                FROM (SELECT * FROM \(arrays.unnest(firstParameter: 1)) WITH ORDINALITY
                        AS x(\(arrays.aliases.joined(separator: ", ")), ord)) AS u
                JOIN (SELECT * FROM unnest($\(fidParameter)::bigint[]) WITH ORDINALITY AS f(fid, ord)) AS f
                  ON f.ord = u.ord
                WHERE t.fid = f.fid
                """
            try db.query(PostgresQuery(unsafeSQL: sql, binds: binds))
            start = end
        }
    }
}
