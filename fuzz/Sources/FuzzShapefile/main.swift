import CFuzzerDriver
import Foundation
import GeoqFormats

/// A shapefile's files in one input: the .shp, then each companion after its marker line
/// (`\n%dbf%\n`, `\n%prj%\n`, `\n%cpg%\n`, in that order, each optional), as tools/fuzz
/// makes the seeds. The reader takes a path and finds the companions beside it, so each input
/// is written to files in a folder of this process's own and read from there.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var rest = Data(bytes: start, count: count)
    var parts: [String: Data] = [:]
    for ext in ["cpg", "prj", "dbf"] {
        if let marker = rest.range(of: Data("\n%\(ext)%\n".utf8), options: .backwards) {
            parts[ext] = rest[marker.upperBound...]
            rest = rest[..<marker.lowerBound]
        }
    }
    parts["shp"] = rest
    for ext in ["shp", "dbf", "prj", "cpg"] {
        let url = folder.appendingPathComponent("layer.\(ext)")
        if let data = parts[ext] {
            _ = FileManager.default.createFile(atPath: url.path, contents: data)
        } else {
            try? FileManager.default.removeItem(at: url)
        }
    }
    _ = try? ShapefileReader().read(at: folder.appendingPathComponent("layer.shp"))
    return 0
}

/// Where the inputs are written, removed when the fuzzer exits.
let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "geoq-fuzz-shapefile-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: folder) }
    return url
}()

exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
