import Foundation
import GeoqStore
import PostgresNIO

/// API keys and the service's own settings in PostgreSQL, shared by every replica: a key added
/// or revoked on one is seen by the others at their next reading of the keys.
extension PostgresTracking {
    public func addKey(_ key: StoredKey) throws {
        try withConnection { db in
            try db.query(
                """
                INSERT INTO \(unescaped: keysTable) (id, tenant, scopes, hash, created, expires, revoked, rate)
                VALUES (\(key.id), \(key.tenant), \(key.scopes), \(key.hash), \(key.created), \(key.expires),
                  \(key.revoked), \(key.rate))
                """)
        }
    }

    /// Every key, revoked and expired ones included, by creation.
    public func keys() throws -> [StoredKey] {
        try withConnection { db in
            try db.query(
                """
                SELECT id, tenant, scopes, hash, created, expires, revoked, rate FROM \(unescaped: keysTable)
                ORDER BY created, id
                """
            ).map { row in
                let (id, tenant, scopes, hash, created, expires, revoked, rate) = try row.decode(
                    (String, String, [String], String, Date, Date?, Date?, Double?).self)
                return StoredKey(
                    id: id, tenant: tenant, scopes: scopes, hash: hash, created: created, expires: expires,
                    revoked: revoked, rate: rate)
            }
        }
    }

    /// Revokes key `id` at `now`; false when there is no such key or it was revoked already.
    public func revokeKey(id: String, at now: Date) throws -> Bool {
        try withConnection { db in
            !(try db.query(
                "UPDATE \(unescaped: keysTable) SET revoked = \(now) WHERE id = \(id) AND revoked IS NULL RETURNING id"
            ).isEmpty)
        }
    }

    /// The setting `name`; when there is none yet, `value` is stored and returned (whichever
    /// replica stores it first, every replica reads that one).
    public func setting(_ name: String, orStore value: Data) throws -> Data {
        try withConnection { db in
            try db.query(
                """
                INSERT INTO \(unescaped: settingsTable) (name, value) VALUES (\(name), \(ByteBuffer(bytes: value)))
                ON CONFLICT (name) DO NOTHING
                """)
            let stored = try db.query("SELECT value FROM \(unescaped: settingsTable) WHERE name = \(name)").first?
                .decode(ByteBuffer.self)
            return stored.map { Data(buffer: $0) } ?? value
        }
    }
}
