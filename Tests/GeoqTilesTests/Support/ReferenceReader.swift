import Foundation
import GeoqTestSupport
import Testing

/// Runs the Python reference reader (PyPI `pmtiles`, `pmtiles.reader`) on an archive.
///
/// The interpreter is `GEOQ_TEST_PYTHON`, which must have the `pmtiles` package; tests that need
/// it are skipped when the variable is unset.
enum ReferenceReader {
    static var python: String? { ProcessInfo.processInfo.environment["GEOQ_TEST_PYTHON"] }

    static let skipReason: Comment =
        "set GEOQ_TEST_PYTHON to a Python with the pmtiles package to read archives with the reference reader"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads `archive` with `all_tiles`, asks `Reader.get` for each of `probes`, and summarises
    /// the header, metadata and directories.
    ///
    /// - Parameter uncompressedDirectories: the archive's internal compression is none. The
    ///   reference reader gunzips every directory whatever the header says, so its directory
    ///   decoder is then handed the directory gzipped by Python first; everything else is its own.
    static func read(
        _ archive: [UInt8], uncompressedDirectories: Bool, probes: [(z: Int, x: Int, y: Int)]
    ) throws -> ReferenceReading {
        guard let python else { throw Failure(description: "GEOQ_TEST_PYTHON is not set") }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("geoq-tiles-reference-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let archiveURL = directory.appendingPathComponent("archive.pmtiles")
        let dumpURL = directory.appendingPathComponent("tiles.bin")
        let scriptURL = directory.appendingPathComponent("read.py")
        try Data(archive).write(to: archiveURL)
        try Data(script.utf8).write(to: scriptURL)

        let run = try ExternalTool.run(
            URL(fileURLWithPath: python),
            [scriptURL.path, archiveURL.path, dumpURL.path, uncompressedDirectories ? "none" : "gzip"]
                + probes.map { "\($0.z)/\($0.x)/\($0.y)" })
        guard run.status == 0 else {
            throw Failure(description: "the reference reader failed (\(run.status)): \(run.stderr)")
        }
        let summaryData = Data(run.stdout.utf8)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let summary = try decoder.decode(ReferenceSummary.self, from: summaryData)

        var traversal: [String: [UInt8]] = [:]
        var probed: [String: [UInt8]?] = [:]
        let dump = [UInt8](try Data(contentsOf: dumpURL))
        var position = 0
        func uint32() -> Int {
            defer { position += 4 }
            return (0..<4).reduce(0) { $0 | Int(dump[position + $1]) << (8 * $1) }
        }
        while position < dump.count {
            let kind = dump[position]
            let z = Int(dump[position + 1])
            position += 2
            let key = "\(z)/\(uint32())/\(uint32())"
            let length = uint32()
            let bytes = Array(dump[position..<position + length])
            position += length
            switch kind {
            case 0: traversal[key] = bytes
            case 1: probed[key] = .some(bytes)
            default: probed[key] = .some(nil)
            }
        }
        return ReferenceReading(summary: summary, traversal: traversal, probes: probed)
    }

    /// Dump records: kind (0 from all_tiles, 1 found by get, 2 not found by get), z as one byte,
    /// x, y and the length as little-endian uint32, then the bytes.
    private static let script = #"""
        import gzip, json, struct, sys
        import pmtiles.reader as R

        archive, dump, mode = sys.argv[1], sys.argv[2], sys.argv[3]
        probes = [tuple(int(v) for v in p.split("/")) for p in sys.argv[4:]]
        if mode == "none":
            gunzipping = R.deserialize_directory
            R.deserialize_directory = lambda buf: gunzipping(gzip.compress(bytes(buf)))

        with open(archive, "rb") as f, open(dump, "wb") as out:
            get = R.MmapSource(f)
            reader = R.Reader(get)
            header = reader.header()

            def record(kind, z, x, y, data):
                out.write(struct.pack("<BBIII", kind, z, x, y, len(data)))
                out.write(data)

            for (z, x, y), data in R.all_tiles(get):
                record(0, z, x, y, data)
            for z, x, y in probes:
                data = reader.get(z, x, y)
                record(2, z, x, y, b"") if data is None else record(1, z, x, y, data)

            def directory(offset, length):
                return R.deserialize_directory(get(offset, length))

            entries, leaves = [], 0
            for e in directory(header["root_offset"], header["root_length"]):
                if e.run_length == 0:
                    leaves += 1
                    entries += directory(header["leaf_directory_offset"] + e.offset, e.length)
                else:
                    entries.append(e)
            end, clustered = 0, True
            for e in entries:
                if e.offset == end:
                    end += e.length
                elif e.offset > end:
                    clustered = False

            summary = {k: (v.value if hasattr(v, "value") else v) for k, v in header.items()}
            summary.update(
                metadata_json=json.dumps(reader.metadata(), ensure_ascii=False),
                leaf_count=leaves,
                entry_count=len(entries),
                addressed=sum(e.run_length for e in entries),
                distinct_offsets=len({e.offset for e in entries}),
                offsets_clustered=clustered,
                ids_sorted=all(a.tile_id < b.tile_id for a, b in zip(entries, entries[1:])),
            )
            print(json.dumps(summary))
        """#
}
