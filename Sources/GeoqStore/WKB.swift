import GeoqCore

/// ISO well-known binary, 2D, little-endian: the geometry inside a GeoPackage blob without its
/// `GP` header, and what PostGIS reads with `ST_GeomFromWKB` and writes with `ST_AsBinary`.
///
/// Reading accepts both byte orders and drops Z and M ordinates, as ``GPKGGeometry`` does;
/// malformed input throws `bad-geometry`, never traps.
public enum WKB {
    public static func encode(_ geometry: Geometry) -> [UInt8] {
        var writer = WKBWriter()
        writer.wkb(geometry)
        return writer.bytes
    }

    public static func decode(_ bytes: [UInt8]) throws(StoreError) -> Geometry {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(StoreError) -> Geometry in
                var reader = WKBReader(buffer: buffer)
                let geometry = try reader.geometry(nested: nil)
                guard reader.offset == buffer.count else {
                    throw StoreError(.badGeometry, "\(buffer.count - reader.offset) bytes after the WKB geometry")
                }
                return geometry
            }
        }
        return try result.get()
    }
}
