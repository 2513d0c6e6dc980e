// swift-tools-version: 6.0
//
// libFuzzer targets for geoq's readers of outside bytes, one executable per reader, built apart
// from the main package so that neither the service nor its dependencies are compiled:
//
//     swift build --package-path fuzz -Xswiftc -sanitize=fuzzer,address --scratch-path .build-fuzz
//
// tools/fuzz builds them, makes their seed corpora and runs them (docs/TESTING.md, Fuzzing).
import PackageDescription

/// The main package's reader products each target reads through.
func readers(_ names: String...) -> [Target.Dependency] {
    ["CFuzzerDriver"] + names.map { .product(name: $0, package: "geoq") }
}

let package = Package(
    name: "geoq-fuzz",
    dependencies: [.package(name: "geoq", path: "..")],
    targets: [
        // libFuzzer's driver, called from each target's main (SwiftPM gives executables their own).
        .target(name: "CFuzzerDriver"),
        // The geometries and foreign WKB the two WKB-reading targets seed their corpora with.
        .target(name: "GeometrySeeds", dependencies: [.product(name: "GeoqCore", package: "geoq")]),

        .executableTarget(name: "FuzzGeoJSON", dependencies: readers("GeoqFormats")),
        .executableTarget(name: "FuzzKML", dependencies: readers("GeoqFormats")),
        .executableTarget(name: "FuzzShapefile", dependencies: readers("GeoqFormats")),
        .executableTarget(name: "FuzzOpendatasoftCSV", dependencies: readers("GeoqFormats")),
        .executableTarget(name: "FuzzGeoRSS", dependencies: readers("GeoqFormats", "GeoqIncidents")),
        .executableTarget(name: "FuzzServicesXML", dependencies: readers("GeoqFormats")),
        .executableTarget(name: "FuzzTripGPX", dependencies: readers("GeoqTrips", "GeoqCore")),
        .executableTarget(name: "FuzzTripCSV", dependencies: readers("GeoqTrips", "GeoqCore")),
        .executableTarget(name: "FuzzWKB", dependencies: readers("GeoqStore", "GeoqCore") + ["GeometrySeeds"]),
        .executableTarget(
            name: "FuzzGPKGGeometry", dependencies: readers("GeoqStore", "GeoqCore") + ["GeometrySeeds"]),
        .executableTarget(name: "FuzzStoredIndex", dependencies: readers("GeoqCore")),
        .executableTarget(name: "FuzzFixReader", dependencies: readers("GeoqTracking")),
        .executableTarget(
            name: "FuzzQueryString",
            dependencies: readers("GeoqAPI", "GeoqQuery", "GeoqTariffs", "GeoqIncidents", "GeoqFormats", "GeoqCore")),
        .executableTarget(name: "FuzzSectorBatch", dependencies: readers("GeoqAPI")),
    ]
)
