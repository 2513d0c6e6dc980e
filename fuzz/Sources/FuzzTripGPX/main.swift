import CFuzzerDriver
import Foundation
import GeoqCore
import GeoqTrips

/// A GPX trace as `geoq trip` reads it, then measured as a trip (the values read go straight
/// into geodesics and time differences).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let trace = try? TripGPXReader().read(Data(bytes: start, count: count), source: "fuzz.gpx") {
        _ = Trip(trace: trace, options: TripOptions(minStep: 50, maxAccuracy: 30)).report(
            geodesic: KarneyGeodesic.wgs84)
    }
    return 0
}

exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
