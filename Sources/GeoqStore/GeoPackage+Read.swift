import GeoqCore

extension GeoPackage {
    /// Every feature layer of the store, sorted by name.
    ///
    /// Layers written by other tools (no `geoq_layers` row) get their title from gpkg_contents and
    /// empty source fields.
    public func layers() throws(StoreError) -> [LayerInfo] {
        let hasGeoqLayers = try tableExists("geoq_layers")
        let meta =
            hasGeoqLayers
            ? "l.title, l.source, l.source_crs, l.imported_at, l.approximate, l.notes"
            : "NULL, NULL, NULL, NULL, NULL, NULL"
        let join = hasGeoqLayers ? "LEFT JOIN geoq_layers l ON l.table_name = c.table_name" : ""
        let stmt = try connection.prepare(
            """
            SELECT c.table_name, c.identifier, c.last_change, c.min_x, c.min_y, c.max_x, c.max_y,
                   g.geometry_type_name, \(meta)
            FROM gpkg_contents c
            LEFT JOIN gpkg_geometry_columns g ON g.table_name = c.table_name
            \(join)
            WHERE c.data_type = 'features'
            ORDER BY c.table_name
            """)
        var infos: [LayerInfo] = []
        while try stmt.step() {
            let name = stmt.text(at: 0) ?? ""
            var extent: BoundingBox?
            if !(3...6).contains(where: { stmt.isNull(at: $0) }) {
                extent = BoundingBox(
                    minX: stmt.double(at: 3), minY: stmt.double(at: 4), maxX: stmt.double(at: 5),
                    maxY: stmt.double(at: 6))
            }
            let notes = stmt.text(at: 13) ?? ""
            infos.append(
                LayerInfo(
                    name: name,
                    title: stmt.text(at: 8) ?? stmt.text(at: 1) ?? name,
                    geometryType: stmt.text(at: 7) ?? "GEOMETRY",
                    featureCount: 0,
                    extent: extent,
                    source: stmt.text(at: 9) ?? "",
                    sourceCRS: stmt.text(at: 10) ?? "",
                    importedAt: stmt.text(at: 11) ?? stmt.text(at: 2) ?? "",
                    approximate: stmt.text(at: 12),
                    notes: notes.isEmpty
                        ? [] : notes.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                ))
        }
        for i in infos.indices {
            infos[i].featureCount = Int(
                try connection.scalarInt("SELECT count(*) FROM \(Self.quoted(infos[i].name))") ?? 0)
        }
        return infos
    }

    /// The layer called `name`; `unknown-layer` (listing the store's layers) if there is none.
    public func layer(named name: String) throws(StoreError) -> LayerInfo {
        let all = try layers()
        guard let info = all.first(where: { $0.name == name }) else { throw unknownLayer(name, known: all.map(\.name)) }
        return info
    }

    /// The features of layer `name`, in stored order, geometries and properties decoded.
    ///
    /// The id comes from `geoq_id` (or `fid` for tables written by other tools), the name from
    /// `geoq_name`; every other column is a property: REAL and INTEGER values as `.number`,
    /// BOOLEAN as `.bool`, text as `.string`, NULL as `.null`.
    public func features(of name: String) throws(StoreError) -> [Feature] {
        let names = try layerNames()
        guard names.contains(name) else { throw unknownLayer(name, known: names) }
        let geometryColumn = try geometryColumnName(of: name)

        // The table's columns and declared types.
        let info = try connection.prepare("PRAGMA table_info(\(Self.quoted(name)))")
        var hasGeoqID = false
        var hasGeoqName = false
        var primaryKey = "fid"
        var properties: [(name: String, boolean: Bool)] = []
        while try info.step() {
            let column = info.text(at: 1) ?? ""
            let type = (info.text(at: 2) ?? "").uppercased()
            if info.int64(at: 5) == 1 {
                primaryKey = column
            } else if column == geometryColumn {
                continue
            } else if column == "geoq_id" {
                hasGeoqID = true
            } else if column == "geoq_name" {
                hasGeoqName = true
            } else {
                properties.append((column, type == "BOOLEAN"))
            }
        }

        let q = Self.quoted
        var select = [
            q(primaryKey), q(geometryColumn), hasGeoqID ? "geoq_id" : "NULL", hasGeoqName ? "geoq_name" : "NULL",
        ]
        select += properties.map { q($0.name) }
        let stmt = try connection.prepare(
            "SELECT \(select.joined(separator: ", ")) FROM \(q(name)) ORDER BY \(q(primaryKey))")

        let keys = properties.map(\.name)
        var features: [Feature] = []
        let rings = PointArena(capacity: try ringPositionBound(of: name, column: geometryColumn))
        while try stmt.step() {
            let fid = stmt.int64(at: 0)
            let id = stmt.text(at: 2) ?? String(fid)
            let geometry: Geometry
            do throws(StoreError) {
                guard !stmt.isNull(at: 1) else { throw StoreError(.badGeometry, "no geometry (NULL)") }
                geometry = try stmt.withBlob(at: 1) { (bytes) throws(StoreError) -> Geometry in
                    try GPKGGeometry.decode(bytes, rings: rings)
                }
            } catch {
                throw error.within("\(path): layer '\(name)', feature '\(id)' (fid \(fid))")
            }
            var values: [String: PropertyValue] = [:]
            values.reserveCapacity(keys.count)
            for (i, column) in properties.enumerated() {
                let at = Int32(i + 4)
                switch stmt.storageClass(at: at) {
                case .null: values[keys[i]] = .null
                case .integer:
                    values[keys[i]] = column.boolean ? .bool(stmt.int64(at: at) != 0) : .number(stmt.double(at: at))
                case .real: values[keys[i]] = .number(stmt.double(at: at))
                case .text, .blob: values[keys[i]] = .string(stmt.text(at: at) ?? "")
                }
            }
            features.append(Feature(id: id, name: stmt.text(at: 3), geometry: geometry, properties: values))
        }
        rings.settle()
        return features
    }

    /// Room for the positions of layer `table`'s rings, from the size of its geometry blobs
    /// (read from the records' headers, not the blobs): each WKB position takes 16 bytes or
    /// more. Rings stored open (geoq writes them closed) take one more position each; should
    /// that overflow the room, the rest go into arrays of their own (see
    /// ``GPKGGeometry/decode(_:rings:)``). Pages of the room never written cost no memory.
    /// None for a layer declared of points or lines, whose blobs need not be measured.
    private func ringPositionBound(of table: String, column: String) throws(StoreError) -> Int {
        let declared = try connection.prepare(
            "SELECT geometry_type_name FROM gpkg_geometry_columns WHERE table_name = ?")
        try declared.bind(table, at: 1)
        let type = try declared.step() ? (declared.text(at: 0) ?? "").uppercased() : ""
        guard !["POINT", "MULTIPOINT", "LINESTRING", "MULTILINESTRING"].contains(type) else { return 0 }
        let stmt = try connection.prepare("SELECT total(length(\(Self.quoted(column)))) FROM \(Self.quoted(table))")
        _ = try stmt.step()
        return Int(stmt.double(at: 0)) / 16
    }

    /// The layer's geometry column as registered in gpkg_geometry_columns (`geom` by default).
    private func geometryColumnName(of table: String) throws(StoreError) -> String {
        let stmt = try connection.prepare("SELECT column_name FROM gpkg_geometry_columns WHERE table_name = ?")
        try stmt.bind(table, at: 1)
        return try stmt.step() ? (stmt.text(at: 0) ?? "geom") : "geom"
    }

    private func unknownLayer(_ name: String, known: [String]) -> StoreError {
        let list = known.isEmpty ? "the store has no layers" : "layers: " + known.joined(separator: ", ")
        return StoreError(.unknownLayer, "\(path): no layer named '\(name)' (\(list))")
    }
}
