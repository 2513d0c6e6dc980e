/// An OGC GeoPackage 1.3 file holding geoq's layers, readable by QGIS and GDAL.
///
/// Each layer is a features table `"<name>"` (`fid`, `geom`, `geoq_id`, `geoq_name`, one column
/// per property) registered in gpkg_contents and gpkg_geometry_columns, with an R*Tree index
/// (extension `gpkg_rtree_index`) and a row in geoq's own table `geoq_layers` (title, source,
/// source CRS, import time, approximation, notes). Geometries are WGS84 longitude/latitude,
/// srs_id 4326. See `GeoPackage+Write.swift` and `GeoPackage+Read.swift`.
///
/// Thread confinement: not `Sendable`; open, use and drop it on one thread or task (it owns an
/// SQLite connection). Several processes may open the same file: writes take SQLite's write lock
/// and wait up to 5 s for it.
public final class GeoPackage {
    /// The file this store reads and writes.
    public let path: String
    let connection: SQLiteConnection

    /// Set when a new file's tables are left for its first ``replaceLayer(_:notes:notesMayWait:index:)``
    /// to create (see ``open(at:create:readOnly:schemaWithFirstLayer:)``); cleared once they exist.
    var schemaPending = false

    /// Test hook: called after each feature row is inserted by ``replaceLayer(_:)`` with the
    /// number of rows inserted so far; throwing aborts (and rolls back) the replacement.
    var afterRowInserted: ((Int) throws(StoreError) -> Void)?

    /// `application_id` of GeoPackage 1.2 and later: "GPKG".
    static let applicationID: Int64 = 0x4750_4B47
    /// How much of a store opened read-only SQLite may map into memory.
    static let mappedBytes: Int64 = 4 << 30
    /// Page size of a new store: a quarter as many pages (and reads and writes of them) as
    /// SQLite's default 4 KiB for a layer of megabytes, still small for the tracking tables'
    /// row-sized commits. Natural Earth's countries imported in 0.28-0.29 s instead of 0.30-0.36 s.
    static let pageSize = 16_384
    /// `user_version` written for GeoPackage 1.3.0.
    static let userVersion: Int64 = 10300

    private init(path: String, connection: SQLiteConnection) {
        self.path = path
        self.connection = connection
    }

    /// Opens the GeoPackage at `path`.
    ///
    /// With `create`, a missing or empty file becomes a new GeoPackage (application_id, user_version
    /// and the required tables and spatial reference systems). Without it, the file must exist.
    /// `readOnly` opens without write access (then `create` must be false).
    ///
    /// With `schemaWithFirstLayer` (and `create`), a new file's tables are made in the same
    /// transaction as the first layer written to it, by ``replaceLayer(_:notes:notesMayWait:index:)``
    /// (one commit and its syncs instead of two); should that layer be refused, they are made on
    /// their own after the rollback, so the file is a GeoPackage either way. For a caller that
    /// writes one layer before anything else.
    ///
    /// Throws `store-unreadable` for a missing or non-SQLite file and `not-a-geopackage` for an
    /// SQLite database that is not a GeoPackage; the message names the path.
    public static func open(
        at path: String, create: Bool, readOnly: Bool = false, schemaWithFirstLayer: Bool = false
    ) throws(StoreError) -> GeoPackage {
        let mode: SQLiteConnection.Mode = readOnly ? .readOnly : (create ? .readWriteCreate : .readWrite)
        if readOnly { SQLiteConnection.rollBackInterruptedWrite(at: path) }
        let connection = try SQLiteConnection(path: path, mode: mode)
        let store = GeoPackage(path: path, connection: connection)
        let tableCount: Int64
        do {
            tableCount = try connection.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0
        } catch {
            throw StoreError(.storeUnreadable, "\(path) is not a readable SQLite database (\(error.message))")
        }
        if tableCount == 0 && create && !readOnly {
            // Only a new file takes a page size (a store made earlier keeps its own).
            try connection.execute("PRAGMA page_size = \(Self.pageSize)")
            if schemaWithFirstLayer { store.schemaPending = true } else { try store.createSchema() }
        }
        // Reads map the file instead of copying each page through a read call: a stored index of
        // hundreds of megabytes is read at memory speed. Only a hint: SQLite may map less.
        if readOnly { try connection.execute("PRAGMA mmap_size = \(Self.mappedBytes)") }
        // Deleted layer data (open data) needs no zeroing: Debian's SQLite zeroes every freed
        // page by default (SQLITE_SECURE_DELETE), which wrote each page of a replaced layer and
        // of its index once more, and copied it to the journal first. The tracking tables keep
        // the default on their own connections: positions of devices are zeroed when deleted.
        if !readOnly { try connection.execute("PRAGMA secure_delete = FAST") }
        // Still empty: its tables come with its first layer, and there is nothing to check yet.
        if store.schemaPending { return store }
        let foundID = try connection.scalarInt("PRAGMA application_id") ?? 0
        let hasContents =
            try connection.scalarInt(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'gpkg_contents'") ?? 0
        // "GPKG" (1.2+), or "GP10" / "GP11" of GeoPackage 1.0 / 1.1.
        guard foundID == applicationID || foundID == 0x4750_3130 || foundID == 0x4750_3131,
            hasContents == 1
        else {
            throw StoreError(
                .notAGeoPackage,
                "\(path) is an SQLite database but not a GeoPackage (application_id \(foundID), "
                    + (hasContents == 1 ? "has" : "no") + " gpkg_contents table)")
        }
        return store
    }

    /// Creates the tables every GeoPackage has (GeoPackage 1.3, Annex C) and geoq's own table.
    /// Does nothing if another process created tables since `open` looked (checked under the
    /// write lock that BEGIN IMMEDIATE takes).
    func createSchema() throws(StoreError) {
        try connection.transaction { () throws(StoreError) in try createSchemaIfEmpty() }
        schemaPending = false
    }

    /// ``createSchema()``'s statements, in the caller's transaction.
    func createSchemaIfEmpty() throws(StoreError) {
        guard try connection.scalarInt("SELECT count(*) FROM sqlite_master") == 0 else { return }
        try connection.execute(
            """
            PRAGMA application_id = \(Self.applicationID);
            PRAGMA user_version = \(Self.userVersion);
            CREATE TABLE gpkg_spatial_ref_sys (
              srs_name TEXT NOT NULL,
              srs_id INTEGER PRIMARY KEY,
              organization TEXT NOT NULL,
              organization_coordsys_id INTEGER NOT NULL,
              definition TEXT NOT NULL,
              description TEXT
            );
            CREATE TABLE gpkg_contents (
              table_name TEXT NOT NULL PRIMARY KEY,
              data_type TEXT NOT NULL,
              identifier TEXT UNIQUE,
              description TEXT DEFAULT '',
              last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
              min_x DOUBLE,
              min_y DOUBLE,
              max_x DOUBLE,
              max_y DOUBLE,
              srs_id INTEGER,
              CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id)
            );
            CREATE TABLE gpkg_geometry_columns (
              table_name TEXT NOT NULL,
              column_name TEXT NOT NULL,
              geometry_type_name TEXT NOT NULL,
              srs_id INTEGER NOT NULL,
              z TINYINT NOT NULL,
              m TINYINT NOT NULL,
              CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
              CONSTRAINT uk_gc_table_name UNIQUE (table_name),
              CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
              CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id)
            );
            CREATE TABLE gpkg_extensions (
              table_name TEXT,
              column_name TEXT,
              extension_name TEXT NOT NULL,
              definition TEXT NOT NULL,
              scope TEXT NOT NULL,
              CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name)
            );
            INSERT INTO gpkg_spatial_ref_sys VALUES
              ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined',
               'undefined cartesian coordinate reference system'),
              ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined',
               'undefined geographic coordinate reference system'),
              ('WGS 84 geodetic', 4326, 'EPSG', 4326, '\(Self.wgs84WKT)',
               'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid');
            """)
        try createGeoqLayersTable()
    }

    /// geoq's per-layer metadata (not part of the GeoPackage standard; other clients ignore it).
    func createGeoqLayersTable() throws(StoreError) {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS geoq_layers (
              table_name TEXT PRIMARY KEY,
              title TEXT NOT NULL,
              source TEXT NOT NULL,
              source_crs TEXT NOT NULL,
              imported_at TEXT NOT NULL,
              approximate TEXT,
              notes TEXT NOT NULL
            )
            """)
    }

    /// EPSG:4326 as OGC WKT 1, as GDAL writes it.
    static let wgs84WKT =
        #"GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],"#
        + #"AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],"#
        + #"UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],"#
        + #"AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]"#

    /// `"identifier"` with embedded quotes doubled: safe for any name, including non-ASCII ones.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingAll("\"", with: "\"\"") + "\""
    }

    /// The names of the feature layers, sorted.
    func layerNames() throws(StoreError) -> [String] {
        let stmt = try connection.prepare(
            "SELECT table_name FROM gpkg_contents WHERE data_type = 'features' ORDER BY table_name")
        var names: [String] = []
        while try stmt.step() { names.append(stmt.text(at: 0) ?? "") }
        return names
    }

    /// True when the database has a table or view named `name`.
    func tableExists(_ name: String) throws(StoreError) -> Bool {
        let stmt = try connection.prepare("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?")
        try stmt.bind(name, at: 1)
        return try stmt.step()
    }

    /// `PRAGMA integrity_check`: "ok" for a sound file, else SQLite's list of problems.
    public func integrityCheck() throws(StoreError) -> String {
        let stmt = try connection.prepare("PRAGMA integrity_check")
        var lines: [String] = []
        while try stmt.step() { lines.append(stmt.text(at: 0) ?? "") }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// `self` with every `target` replaced (Foundation-free).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        guard contains(target) else { return self }
        var out = ""
        out.reserveCapacity(count + 2)
        for c in self {
            if c == target { out += replacement } else { out.append(c) }
        }
        return out
    }
}
