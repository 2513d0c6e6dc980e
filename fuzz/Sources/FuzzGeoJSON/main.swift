import CFuzzerDriver
import Foundation
import GeoqFormats

/// A GeoJSON file as `geoq import` and the layer loader read it: features, or a FormatError.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = try? GeoJSONReader().read(data: Data(bytes: start, count: count), source: "fuzz.geojson")
    return 0
}

exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
