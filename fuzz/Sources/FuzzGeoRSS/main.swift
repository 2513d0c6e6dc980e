import CFuzzerDriver
import Foundation
import GeoqFormats
import GeoqIncidents

/// An RSS or Atom feed, as the incident refresh streams it entry by entry (each entry made an
/// incident: its HTML description cleaned, its id given) and as a point layer reads it whole.
/// Entries whose geometry is in another CRS are made incidents without it (the refresh
/// reprojects them with PROJ, which is not fuzzed here).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    var builder = IncidentBuilder(source: "fuzz", type: .trafficCut, seen: Date(timeIntervalSince1970: 1_794_900_000))
    _ = try? GeoRSSFeedReader.read(data: data, source: "fuzz.rss") { entry in
        _ = builder.incident(
            title: entry.title, guid: entry.id, link: entry.link, published: entry.published ?? entry.updated,
            html: entry.description, geometry: entry.location?.crs == nil ? entry.location?.geometry : nil,
            categories: entry.categories)
    }
    _ = try? GeoRSSPointReader().read(data: data, source: "fuzz.rss")
    return 0
}

exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
