import Foundation
import GeoqAPI
import GeoqGzip
import GeoqTiles
import HTTPTypes
import Hummingbird
import Synchronization

/// `GET /ogc/collections/{id}/tiles/WebMercatorQuad/{z}/{y}/{x}`: the tile of ``OGCTiles``, cut
/// once per snapshot and kept (``TileCache``), with the headers map clients cache by, as
/// ``LayerFeaturesResponse`` gives a layer's features:
///
/// - a strong `ETag` of the snapshot's generation and the tile (a reload changes it);
///   `If-None-Match` naming it gets 304 with no body; `Cache-Control: no-cache`;
/// - `Accept-Encoding: gzip`: the tile gzip-compressed (`Content-Encoding: gzip`), `Vary:
///   Accept-Encoding` on every answer;
/// - a tile where the collection has nothing: 204, no body (OGC API - Tiles' empty tile);
/// - `geoq-tile-dropped: N` when the size cap left N features out, so a client can say so.
///
/// One of the GET endpoints (``GetEndpoints``), so that a map's stream of tiles is answered on
/// the event loop, as every other read, and by the router with the same function otherwise.
enum TileResponse {
    /// The path's parts when `path` is a tile's: the collection (percent-decoded) and z, y, x as
    /// sent.
    static func tilePath(_ path: String) -> (collection: String, z: String, y: String, x: String)? {
        // Asked of every answer the event loop gives (its metrics' route): most are no tile.
        guard path.hasPrefix("/ogc/collections/") else { return nil }
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 9, parts[0].isEmpty, Substring(parts[1]) == "ogc", Substring(parts[2]) == "collections",
            Substring(parts[4]) == "tiles", Substring(parts[5]) == Substring(OGCTiles.tileMatrixSet)
        else { return nil }
        let collection = String(Substring(parts[3]))
        return (
            collection.removingPercentEncoding ?? collection, String(Substring(parts[6])), String(Substring(parts[7])),
            String(Substring(parts[8]))
        )
    }

    /// The answer to `request`, a tile's path (else a 404 problem).
    static func answer(_ request: EndpointRequest, state: ServiceState, cache: TileCache) throws(Problem) -> Answer {
        guard let (id, z, y, x) = tilePath(request.path) else { throw Problem.notFound(path: request.path) }
        let (data, generation) = state.snapshot
        guard let data else { throw Problem.stillLoading }
        let (zoom, row, column) = (
            try OGCTiles.pathNumber(z, "z"), try OGCTiles.pathNumber(y, "y"), try OGCTiles.pathNumber(x, "x")
        )
        let gzip = Gzip.isAccepted(by: request.acceptEncoding)
        let key = TileCache.Key(generation: generation, collection: id, z: zoom, y: row, x: column)
        let tag = LayerFeaturesResponse.etag(
            generation: generation, key: "tile \(id)/\(zoom)/\(row)/\(column)", gzip: gzip)
        var headers = [("ETag", tag), ("Cache-Control", "no-cache"), ("Vary", "Accept-Encoding")]
        if LayerFeaturesResponse.matches(request.ifNoneMatch, tag) {
            return Answer(status: .notModified, contentType: OGCTiles.mediaType, body: ByteBuffer(), headers: headers)
        }
        let cut = try cache.tile(key) { () throws(Problem) in
            let tiler = try cache.tiler(generation: generation, collection: id) { () throws(Problem) in
                try OGCTiles.tiler(id, data: data)
            }
            let tile = try OGCTiles.tile(tiler, z: zoom, y: row, x: column)
            return TileCache.Tile(
                bytes: ByteBuffer(bytes: tile.bytes), dropped: tile.featuresOverSizeCap, kept: tile.featuresKept)
        }
        guard cut.kept > 0 else {
            return Answer(status: .noContent, contentType: OGCTiles.mediaType, body: ByteBuffer(), headers: headers)
        }
        if cut.dropped > 0 { headers.append(("geoq-tile-dropped", String(cut.dropped))) }
        var body = cut.bytes
        if gzip {
            body = try cache.gzipped(key, cut.bytes)
            headers.append(("Content-Encoding", "gzip"))
        }
        // The kept buffer itself: its storage is shared, not copied, by every answer of the tile.
        return Answer(status: .ok, contentType: OGCTiles.mediaType, body: body, headers: headers)
    }
}

/// Tiles already cut, by snapshot generation and tile, with their gzip form once asked: a map
/// asks the same tiles again and again, and a snapshot never changes. Bounded by bytes: past
/// ``capacity`` the oldest generation's tiles go first, then everything (a new snapshot's tiles
/// are cut again as they are asked).
final class TileCache: Sendable {
    struct Key: Hashable, Sendable {
        var generation: Int
        var collection: String
        var z: Int, y: Int, x: Int
    }

    struct Tile: Sendable {
        var bytes: ByteBuffer
        var dropped: Int
        var kept: Int
        var gzipped: ByteBuffer? = nil
    }

    let capacity: Int
    private let tiles = Mutex<(entries: [Key: Tile], bytes: Int)>(([:], 0))
    /// Each collection's tiler, of the latest generation asked.
    private let tilers = Mutex<[String: (generation: Int, tiler: LayerTiler)]>([:])

    /// The tiler of `collection` in snapshot `generation`, made by `make` once per generation:
    /// every feature's bounds, which a tile would otherwise compute again.
    func tiler(generation: Int, collection: String, make: () throws(Problem) -> LayerTiler) throws(Problem)
        -> LayerTiler
    {
        if let kept = tilers.withLock({ $0[collection] }), kept.generation == generation { return kept.tiler }
        let tiler = try make()
        tilers.withLock { $0[collection] = (generation, tiler) }
        return tiler
    }

    init(capacity: Int = 256 << 20) { self.capacity = capacity }

    /// The tile of `key`, cut by `cut` when not kept yet. Two requests for a new tile at once
    /// may both cut it; the answer is the same.
    func tile(_ key: Key, cut: () throws(Problem) -> Tile) throws(Problem) -> Tile {
        if let kept = tiles.withLock({ $0.entries[key] }) { return kept }
        let tile = try cut()
        store(key, tile)
        return tile
    }

    /// The gzip form of `key`'s `bytes`, made once.
    func gzipped(_ key: Key, _ bytes: ByteBuffer) throws(Problem) -> ByteBuffer {
        if let kept = tiles.withLock({ $0.entries[key]?.gzipped }) { return kept }
        guard let compressed = Gzip.compress(Array(bytes.readableBytesView)) else {
            throw Problem.internalError("gzip failed")
        }
        let buffer = ByteBuffer(bytes: compressed)
        tiles.withLock { state in
            if state.entries[key] != nil {
                state.entries[key]!.gzipped = buffer
                state.bytes += buffer.readableBytes
            }
        }
        return buffer
    }

    private func store(_ key: Key, _ tile: Tile) {
        tiles.withLock { state in
            let size = tile.bytes.readableBytes
            if state.bytes + size > capacity {
                state.entries = state.entries.filter { $0.key.generation >= key.generation }
                state.bytes = state.entries.values.reduce(0) {
                    $0 + $1.bytes.readableBytes + ($1.gzipped?.readableBytes ?? 0)
                }
                if state.bytes + size > capacity {
                    state.entries = [:]
                    state.bytes = 0
                }
            }
            if state.entries.updateValue(tile, forKey: key) == nil { state.bytes += size }
        }
    }
}
