import CZlib
import Foundation

/// One-shot gzip (RFC 1952) through zlib: the service's answers sent with `Content-Encoding:
/// gzip`, and the directories and tiles of PMTiles archives.
///
/// The zlib stream lives and dies inside one call, so nothing of it is shared between threads.
public enum Gzip {
    /// `bytes` compressed as one gzip member; nil only if zlib refuses (out of memory).
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Whether an `Accept-Encoding` header accepts gzip (`gzip` or `*`, not with `q=0`).
    public static func isAccepted(by acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        for item in acceptEncoding.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            let refused = parts.dropFirst().contains { parameter in
                let pieces = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                return pieces.count == 2 && pieces[0] == "q" && (Double(pieces[1]) ?? 1) == 0
            }
            return !refused
        }
        return false
    }
}
