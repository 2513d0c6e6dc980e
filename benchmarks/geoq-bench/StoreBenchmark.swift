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

    static func vertexCount(_ g: Geometry) -> Int {
        switch g {
        case .point: 1
        case .multiPoint(let ps), .lineString(let ps): ps.count
        case .multiLineString(let ls): ls.reduce(0) { $0 + $1.count }
        case .polygon(let p): p.vertexCount
        case .multiPolygon(let mp): mp.vertexCount
        }
    }
}
