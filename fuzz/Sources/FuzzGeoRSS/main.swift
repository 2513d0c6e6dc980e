import CFuzzerDriver
import Foundation
import GeoqFormats

/// An RSS or Atom feed, as the incident refresh streams it entry by entry and as a point layer
/// reads it whole.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    _ = try? GeoRSSFeedReader.read(data: data, source: "fuzz.rss") { _ in }
    _ = try? GeoRSSPointReader().read(data: data, source: "fuzz.rss")
    return 0
}

exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
