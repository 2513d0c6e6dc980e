import Foundation
import GeoqCore

/// The id of an entry that has neither guid nor link: FNV-1a (128-bit) of its title, date and
/// geometry, in 32 lowercase hex digits.
///
/// Written out here rather than taken from a library so that the value is the same on every run
/// and machine (Swift's `Hasher` is seeded per process). Coordinates enter as whole units of
/// 1e-7 degrees (about 1 cm), so that the last bits of a reprojection cannot change an id; the
/// date enters as whole seconds since 1970.
enum IncidentDigest {
    static let offsetBasis: UInt128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d
    static let prime: UInt128 = 0x0000_0000_0100_0000_0000_0000_0000_013b

    /// FNV-1a over `bytes`, 128-bit (the published offset basis and prime).
    static func fnv1a128(_ bytes: some Sequence<UInt8>) -> UInt128 {
        var hash = offsetBasis
        for byte in bytes {
            hash ^= UInt128(byte)
            hash = hash &* prime
        }
        return hash
    }

    /// 32 hex digits, most significant first.
    static func hex(_ value: UInt128) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 32 - digits.count) + digits
    }

    /// The digest id of an entry: `title` as written (trimmed), `published`, `geometry` in WGS84.
    static func id(title: String, published: Date?, geometry: Geometry?) -> String {
        hex(fnv1a128(Array(canonicalText(title: title, published: published, geometry: geometry).utf8)))
    }

    /// What the digest is taken of: the three fields on their own lines, the geometry as its
    /// kind and its coordinates in 1e-7 degrees (x then y), parts and rings in brackets.
    static func canonicalText(title: String, published: Date?, geometry: Geometry?) -> String {
        let date = published.map { String(Int64($0.timeIntervalSince1970.rounded(.down))) } ?? ""
        return "\(title)\n\(date)\n\(geometry.map(canonical) ?? "")"
    }

    static func canonical(_ geometry: Geometry) -> String {
        func point(_ p: Point) -> String {
            "\(Int64((p.x * 1e7).rounded())) \(Int64((p.y * 1e7).rounded()))"
        }
        func points(_ list: [Point]) -> String { "(" + list.map(point).joined(separator: ",") + ")" }
        func rings(_ polygon: Polygon) -> String { "(" + polygon.rings.map { points($0.points.array) }.joined() + ")" }
        switch geometry {
        case .point(let p): return "POINT(\(point(p)))"
        case .multiPoint(let list): return "MULTIPOINT" + points(list)
        case .lineString(let list): return "LINESTRING" + points(list)
        case .multiLineString(let lines): return "MULTILINESTRING(" + lines.map(points).joined() + ")"
        case .polygon(let polygon): return "POLYGON" + rings(polygon)
        case .multiPolygon(let multi): return "MULTIPOLYGON(" + multi.polygons.map(rings).joined() + ")"
        }
    }
}
