import CFuzzerDriver
import Foundation
import GeoqFormats

/// A KML file: placemarks as features, or a FormatError.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = try? KMLReader().read(data: Data(bytes: start, count: count), source: "fuzz.kml")
    return 0
}

exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
