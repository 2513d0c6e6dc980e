import Foundation
import GeoqCore
import GeoqLayers

/// The store half of the benchmark: the time until an opened store is ready, with its stored
/// indexes and without them (see ``openHalf(locations:runs:progress:)``). Import throughput is
/// ``ImportBenchmark``'s.
enum StoreBenchmark {
    static func run(locations: DataLocations, runs: Int, progress: Progress) throws {
        try openHalf(locations: locations, runs: runs, progress: progress)
    }

}
