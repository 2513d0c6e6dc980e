import CFuzzerDriver
import Foundation
import GeoqFormats

/// A city's services XML: services as point features, or a FormatError.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = try? ServicesXMLReader().read(data: Data(bytes: start, count: count), source: "fuzz.xml")
    return 0
}

exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
