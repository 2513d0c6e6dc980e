import CFuzzerDriver
import Foundation
import GeoqFormats

/// An opendatasoft CSV export (Valencia's layers): features from its shape or point column.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = try? OpendatasoftCSVReader().read(data: Data(bytes: start, count: count), source: "fuzz.csv")
    return 0
}

exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
