import Foundation

/// API keys and the service's own settings in a GeoPackage (`geoq_keys`, `geoq_settings`).
extension TrackingTables {
    /// Adds a key (its hash; the key itself is never stored).
    public func addKey(_ key: StoredKey) throws(StoreError) {
        let stmt = try connection.prepare(
            """
            INSERT INTO geoq_keys (id, tenant, scopes, hash, created, expires, revoked, rate)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try stmt.bind(key.id, at: 1)
        try stmt.bind(key.tenant, at: 2)
        try stmt.bind(key.scopes.joined(separator: ","), at: 3)
        try stmt.bind(key.hash, at: 4)
        try stmt.bind(key.created.timeIntervalSince1970, at: 5)
        try stmt.bind(key.expires?.timeIntervalSince1970, at: 6)
        try stmt.bind(key.revoked?.timeIntervalSince1970, at: 7)
        try stmt.bind(key.rate, at: 8)
        try stmt.run()
    }

    /// Every key, revoked and expired ones included, by creation.
    public func keys() throws(StoreError) -> [StoredKey] {
        let stmt = try connection.prepare(
            "SELECT id, tenant, scopes, hash, created, expires, revoked, rate FROM geoq_keys ORDER BY created, id")
        var keys: [StoredKey] = []
        func date(_ column: Int32) -> Date? {
            stmt.isNull(at: column) ? nil : Date(timeIntervalSince1970: stmt.double(at: column))
        }
        while try stmt.step() {
            keys.append(
                StoredKey(
                    id: stmt.text(at: 0) ?? "", tenant: stmt.text(at: 1) ?? "",
                    scopes: (stmt.text(at: 2) ?? "").split(separator: ",").map(String.init),
                    hash: stmt.text(at: 3) ?? "",
                    created: date(4) ?? Date(timeIntervalSince1970: 0), expires: date(5), revoked: date(6),
                    rate: stmt.isNull(at: 7) ? nil : stmt.double(at: 7)))
        }
        return keys
    }

    /// Revokes key `id` at `now`; false when there is no such key or it was revoked already.
    public func revokeKey(id: String, at now: Date) throws(StoreError) -> Bool {
        let stmt = try connection.prepare("UPDATE geoq_keys SET revoked = ? WHERE id = ? AND revoked IS NULL")
        try stmt.bind(now.timeIntervalSince1970, at: 1)
        try stmt.bind(id, at: 2)
        try stmt.run()
        return try connection.scalarInt("SELECT changes()") == 1
    }

    /// The setting `name`; when there is none yet, `value` is stored and returned. Every process
    /// on the store gets the same value, whoever stored it first.
    public func setting(_ name: String, orStore value: Data) throws(StoreError) -> Data {
        let put = try connection.prepare("INSERT OR IGNORE INTO geoq_settings (name, value) VALUES (?, ?)")
        try put.bind(name, at: 1)
        try put.bind(blob: [UInt8](value), at: 2)
        try put.run()
        let get = try connection.prepare("SELECT value FROM geoq_settings WHERE name = ?")
        try get.bind(name, at: 1)
        guard try get.step() else { return value }
        return blob(get, 0)
    }

    /// The setting `name`, or nil when none is stored.
    public func storedSetting(_ name: String) throws(StoreError) -> Data? {
        let get = try connection.prepare("SELECT value FROM geoq_settings WHERE name = ?")
        try get.bind(name, at: 1)
        guard try get.step() else { return nil }
        return blob(get, 0)
    }

    /// Stores `value` as the setting `name`, in place of any earlier value.
    public func replaceSetting(_ name: String, with value: Data) throws(StoreError) {
        let put = try connection.prepare("INSERT OR REPLACE INTO geoq_settings (name, value) VALUES (?, ?)")
        try put.bind(name, at: 1)
        try put.bind(blob: [UInt8](value), at: 2)
        try put.run()
    }
}
