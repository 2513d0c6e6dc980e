import CFuzzerDriver
import Foundation
import GeoqCore
import GeoqTrips

/// A CSV trace as `geoq trip` reads it (through the sniffing reader, which sends text that
/// does not start with `<` to the CSV reader), then measured as a trip.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let trace = try? TripTraceReader.read(Data(bytes: start, count: count), source: "fuzz.csv", isGPX: false) {
        _ = Trip(trace: trace, options: TripOptions(minStep: 50, maxAccuracy: 30)).report(
            geodesic: KarneyGeodesic.wgs84)
    }
    return 0
}

exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
