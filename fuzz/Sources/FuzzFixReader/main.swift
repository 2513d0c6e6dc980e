import CFuzzerDriver
import Foundation
import GeoqTracking

/// A body posted to the fixes endpoint (JSON array, one object or NDJSON), read within the
/// service's bounds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let now = Date(timeIntervalSince1970: 1_794_900_000)
    let bounds = FixReader.Bounds(
        maxDeviceIDLength: 128, earliest: now.addingTimeInterval(-30 * 86_400), latest: now.addingTimeInterval(300))
    _ = FixReader.read(Data(bytes: start, count: count), within: bounds)
    return 0
}

exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
