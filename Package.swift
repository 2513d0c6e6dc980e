// swift-tools-version: 6.0
//
// geoq — a geospatial query engine and sector-lookup service.
//
// The import graph points one way: faces (the CLI, the HTTP service) -> the API without HTTP and
// the snapshot it answers from -> the queries (GeoqQuery, GeoqParking) and the domain modules ->
// core. Files, the store and C libraries are reached only from GeoqLayers, the faces and the
// adapters: the queries and the API work on values. Each C library is reached through one thin
// adapter module: GEOS through GeoqGEOS, PROJ through GeoqPROJ, SQLite through GeoqStore, libxml2
// through GeoqXML; zlib (gzip for the service's answers and the tile archives) through GeoqGzip.
// GeoqCore itself does no I/O and links no C library.
//
// The layers know no database client. GeoqLayers owns the protocols of a shared store
// (SharedStoreBackend, SharedLayerTables, SharedTrackingTables, and SharedStoreError for their
// failures); the GeoPackage is its embedded store (GeoqStore, SQLite), and GeoqPostGIS is the one
// shared backend, implementing those protocols over postgres-nio. So GeoqPostGIS depends on
// GeoqLayers, not the other way round: the backend plugs into the layers, and GeoqLayers,
// GeoqHooks, GeoqSnapshot and their tests build no PostgreSQL client (GeoqLayers and GeoqSnapshot
// not even SwiftNIO). The faces that read store addresses (geoq-server's GeoqServerCLI, and
// GeoqServer, which follows the store's announcements) choose the backend; `geoq` (GeoqCLI) links
// none and hands such command lines to geoq-server. Only GeoqPostGIS and the faces import
// PostgresNIO.
//
// Every target declares exactly the modules it imports; tools/check-imports checks that, and
// the rules above, before tools/test builds.
import PackageDescription

let package = Package(
    name: "geoq",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "geoq", targets: ["GeoqCLI"]),
        .executable(name: "geoq-server", targets: ["GeoqServerCLI"]),
        .library(name: "GeoqCore", targets: ["GeoqCore"]),
        .library(name: "GeoqLayers", targets: ["GeoqLayers"]),
        // The readers of outside bytes and the values the API answers from, for the fuzz package
        // (fuzz/), which builds them alone: GeoqLayers would bring in GEOS, PROJ and SQLite.
        .library(name: "GeoqFormats", targets: ["GeoqFormats"]),
        .library(name: "GeoqStore", targets: ["GeoqStore"]),
        .library(name: "GeoqTrips", targets: ["GeoqTrips"]),
        .library(name: "GeoqTracking", targets: ["GeoqTracking"]),
        .library(name: "GeoqAPI", targets: ["GeoqAPI"]),
        .library(name: "GeoqQuery", targets: ["GeoqQuery"]),
        .library(name: "GeoqTariffs", targets: ["GeoqTariffs"]),
        .library(name: "GeoqIncidents", targets: ["GeoqIncidents"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // System C libraries, found through pkg-config (apt: libgeos-dev libproj-dev libsqlite3-dev
        // libxml2-dev zlib1g-dev).
        .systemLibrary(
            name: "CGEOS", pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(
            name: "CPROJ", pkgConfig: "proj",
            providers: [.apt(["libproj-dev", "proj-data"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),

        // Pure spatial core: geometry values, R-tree, point-in-polygon, planar/local distances.
        .target(name: "GeoqCore", linkerSettings: [.linkedLibrary("m")]),
        // JSON answers written straight into bytes, byte for byte what JSONEncoder writes (the
        // answers the service gives thousands of times a second).
        .target(name: "GeoqJSON"),

        // Adapters: one thin, confined owner per C handle.
        .target(name: "GeoqGEOS", dependencies: ["CGEOS", "GeoqCore"]),
        .target(name: "GeoqPROJ", dependencies: ["CPROJ", "GeoqCore"]),
        // libxml2's streaming reader behind one small event API, shared by every XML reader: the
        // feed, KML and services readers (GeoqFormats) and the GPX reader (GeoqTrips). Its own
        // module, so that trips need not depend on the file formats to read XML.
        .target(name: "GeoqXML", dependencies: ["CLibXML2"]),

        // Domain modules on the core: nearest-N ranking over point layers, the augmented-reality
        // overlay (no files, no C), trips from GPS traces (which read GPX through GeoqXML), the
        // Fallas' sections and colours (on nothing at all).
        // One CPU hint Swift does not expose (__builtin_prefetch), header-only: the point index
        // asks for a leaf's cache lines as soon as it queues the leaf.
        .target(name: "CPrefetch"),
        .target(name: "GeoqNearby", dependencies: ["GeoqCore", "CPrefetch"]),
        .target(name: "GeoqAR", dependencies: ["GeoqCore", "GeoqJSON"]),
        .target(name: "GeoqTrips", dependencies: ["GeoqCore", "GeoqXML", "GeoqSchedule"]),
        .target(name: "GeoqFallas"),
        // Vector tiles: the OGC WebMercatorQuad tile grid, features clipped, simplified and
        // encoded as Mapbox Vector Tiles 2.1 (protobuf by hand) under a size cap, and PMTiles v3
        // archives of them. On the core only: the service cuts tiles from its in-memory layers.
        .target(name: "GeoqTiles", dependencies: ["GeoqCore"]),
        // gzip through zlib, in one call: the service's answers and the PMTiles archives.
        .target(name: "GeoqGzip", dependencies: ["CZlib"]),

        // Regulated hours and holidays: opening_hours expressions, layered public-holiday calendars,
        // wall clocks of a time zone. Then parking tariffs on top (zones, rates, tickets, reminders).
        .target(name: "GeoqSchedule"),
        .target(name: "GeoqTariffs", dependencies: ["GeoqSchedule"]),
        // Downloads over HTTP(S) with one error per failure kind (no connection, timeout, HTTP
        // status, truncated body), so a failed refresh can be told from a bad feed.
        .target(name: "GeoqFetch"),
        // City incident feeds: the incident model, HTML descriptions cleaned, nearest-first lists.
        .target(name: "GeoqIncidents", dependencies: ["GeoqCore", "GeoqSchedule"]),
        // The questions geoq answers, over values and nothing else (no files, no C library):
        // layers as values, which-sector, nearest and services, incidents near a point, and each
        // answer type with its JSON and GeoJSON writers. Geodesics come in through the core's
        // GeodesicSolving, so the queries are tested with any solver.
        .target(
            name: "GeoqQuery",
            dependencies: ["GeoqCore", "GeoqNearby", "GeoqFallas", "GeoqIncidents", "GeoqSchedule", "GeoqJSON"]),
        // "Can I park here?": the sector query joined with the tariffs and the zone lines, and the
        // park and tariff answers. On the query module and the tariffs only (no store, no C).
        .target(
            name: "GeoqParking", dependencies: ["GeoqCore", "GeoqQuery", "GeoqSchedule", "GeoqTariffs", "GeoqJSON"]),

        // Geofences over a layer: device fixes in, enter/exit/dwell/parked/left events out, with
        // hysteresis, accuracy gating and the park answer on `parked`. Values only (no files, no
        // store, no C): the faces keep the device tracks and deliver the events.
        .target(
            name: "GeoqTracking",
            dependencies: [
                "GeoqCore", "GeoqFormats", "GeoqJSON", "GeoqNearby", "GeoqQuery", "GeoqParking", "GeoqSchedule",
                "GeoqTariffs",
            ]),

        // File formats -> core features (GeoJSON, KML, Shapefile, opendatasoft CSV). No CRS math.
        .target(name: "GeoqFormats", dependencies: ["GeoqCore", "GeoqXML"]),
        .target(name: "GeoqStore", dependencies: ["CSQLite", "GeoqCore"]),

        // Named layers: the catalog in data/layers.json, loading (read, reproject, validate), the
        // import into the store, the incident store and the tracking store. Gives GeoqQuery its
        // layers. The store is a GeoPackage (GeoqStore) or a shared database behind the layers'
        // own protocols (SharedStoreBackend and its tables), whose backend a face hands in: no
        // database client here.
        .target(
            name: "GeoqLayers",
            dependencies: [
                "GeoqCore", "GeoqQuery", "GeoqFormats", "GeoqGEOS", "GeoqPROJ", "GeoqStore", "GeoqIncidents",
            ]),
        // The store in PostgreSQL/PostGIS, for many geoq processes over one database: the same
        // layers, incidents, device tracks and webhook outbox as the GeoPackage, geometry as WKB
        // in PostGIS columns, and LISTEN/NOTIFY for changes. The shared-store backend of the
        // layers (PostGISBackend implements GeoqLayers' protocols, so it depends on GeoqLayers).
        // postgres-nio behind a small blocking connection, so the store has one calling
        // convention whichever backend it is; TLS as libpq's sslmode and sslrootcert say
        // (swift-nio-ssl).
        .target(
            name: "GeoqPostGIS",
            dependencies: [
                "GeoqCore", "GeoqStore", "GeoqLayers",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // Who may ask: API keys (stored as hashes), device tokens (HMAC-signed, one device each),
        // scopes, the key ring each request is checked against, and rate limits as token
        // buckets. No HTTP: the service's access gate applies them to requests.
        .target(
            name: "GeoqAccess",
            dependencies: ["GeoqStore", .product(name: "Crypto", package: "swift-crypto")]),

        // Web Push as the browsers' push services take it: payloads encrypted as RFC 8291 says
        // (aes128gcm), the service's VAPID key and tokens (RFC 8292), the subscription a browser
        // hands in. Values and cryptography only: GeoqHooks delivers.
        .target(
            name: "GeoqPush",
            dependencies: ["GeoqAccess", .product(name: "Crypto", package: "swift-crypto")]),

        // Webhook delivery from the store's outbox: one loop per hook, retries with backoff,
        // dead letters, metrics. Destinations checked on every resolved address, POSTed by its
        // own small SwiftNIO client to the address checked.
        .target(
            name: "GeoqHooks",
            dependencies: [
                "GeoqLayers", "GeoqStore", "GeoqPush", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),

        // The HTTP API without HTTP: query parameters in, answers or RFC 9457 problems out, over
        // the data snapshot the service answers from (values only). Testable without a server.
        .target(
            name: "GeoqAPI",
            dependencies: [
                "GeoqCore", "GeoqQuery", "GeoqParking", "GeoqTariffs", "GeoqSchedule", "GeoqIncidents", "GeoqAR",
                "GeoqFormats", "GeoqJSON", "GeoqTiles",
            ]),
        // The service's data snapshot loaded: every layer of the library, the tariffs beside the
        // catalog, the incident store, and PROJ's geodesic. Apart from GeoqAPI so that the API
        // itself knows nothing of files or C libraries.
        .target(
            name: "GeoqSnapshot",
            dependencies: [
                "GeoqAPI", "GeoqCore", "GeoqQuery", "GeoqLayers", "GeoqParking", "GeoqTariffs",
                "GeoqIncidents", "GeoqNearby", "GeoqPROJ",
            ]),
        // `geoq serve`: Hummingbird owns the socket, lifecycle and router over GeoqAPI; a SwiftNIO
        // handler right after the HTTP/1 codec answers the GET endpoints on the event loop, and
        // another closes slow, idle and surplus connections; swift-nio-ssl speaks TLS when asked.
        // The map page's own files are its resources (Page/); Leaflet is served from where the
        // system installed it.
        .target(
            name: "GeoqServer",
            dependencies: [
                "GeoqAPI", "GeoqTracking", "GeoqCore", "GeoqQuery", "GeoqSchedule", "GeoqIncidents", "GeoqParking",
                "GeoqJSON", "GeoqGzip", "GeoqTiles", "GeoqHooks", "GeoqLayers", "GeoqStore", "GeoqPostGIS",
                "GeoqAccess", "GeoqPush", "GeoqTariffs", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            // The map page served at / (index.html, its scripts and style sheet).
            resources: [.copy("Page")]),

        // The commands that answer from a store (the GeoPackage; PostgreSQL when the program links
        // it), shared by both executables, with the root's help and how a command line is run.
        .target(
            name: "GeoqCommands",
            dependencies: [
                "GeoqCore", "GeoqLayers", "GeoqQuery", "GeoqFormats", "GeoqStore", "GeoqAR", "GeoqTrips",
                "GeoqTracking", "GeoqSchedule", "GeoqTariffs", "GeoqParking", "GeoqIncidents", "GeoqFetch",
                "GeoqJSON", "GeoqNearby", "GeoqTiles", "GeoqGzip",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // `geoq`: the command line users type. It links no network stack (no SwiftNIO, BoringSSL,
        // Hummingbird or postgres-nio), so that the first answer needs none of them compiled; it
        // hands the service, webhooks, keys and PostgreSQL stores to `geoq-server` beside it.
        .executableTarget(
            name: "GeoqCLI",
            dependencies: ["GeoqCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // `geoq-server`: every command, with the HTTP service, webhooks, API keys and PostgreSQL.
        .executableTarget(
            name: "GeoqServerCLI",
            dependencies: [
                "GeoqCommands", "GeoqAPI", "GeoqSnapshot", "GeoqLayers", "GeoqStore", "GeoqServer", "GeoqHooks",
                "GeoqPostGIS", "GeoqAccess", "GeoqSchedule", "GeoqPush",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // Benchmarks: `swift run -c release geoq-bench`; tools/test runs `geoq-bench --smoke` once.
        .executableTarget(
            name: "geoq-bench",
            dependencies: [
                "GeoqLayers", "GeoqQuery", "GeoqGEOS", "GeoqCore", "GeoqTestSupport", "GeoqNearby", "GeoqPROJ",
                "GeoqFormats",
                "GeoqIncidents", "GeoqTracking", "GeoqHooks", "GeoqStore", "GeoqTiles", "GeoqPush", "GeoqAccess",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "benchmarks/geoq-bench"),

        // Tests.
        .target(name: "GeoqTestSupport", path: "Tests/GeoqTestSupport"),
        .testTarget(name: "GeoqCoreTests", dependencies: ["GeoqCore", "GeoqTestSupport"]),
        .testTarget(name: "GeoqTilesTests", dependencies: ["GeoqTiles", "GeoqCore", "GeoqTestSupport"]),
        .testTarget(
            name: "GeoqGEOSTests",
            dependencies: ["GeoqGEOS", "GeoqCore", "GeoqFormats", "GeoqLayers", "GeoqQuery", "GeoqTestSupport"]),
        .testTarget(
            name: "GeoqQueryTests",
            dependencies: ["GeoqQuery", "GeoqCore", "GeoqIncidents", "GeoqPROJ", "GeoqTestSupport"]),
        .testTarget(name: "GeoqPROJTests", dependencies: ["GeoqPROJ", "GeoqCore", "GeoqTestSupport"]),
        .testTarget(name: "GeoqFormatsTests", dependencies: ["GeoqFormats", "GeoqCore", "GeoqTestSupport"]),
        .testTarget(name: "GeoqJSONTests", dependencies: ["GeoqJSON", "GeoqTestSupport"]),
        // The layers over GeoPackage stores and catalog files: no database client. Their tests
        // against PostgreSQL are GeoqPostGISTests'.
        .testTarget(
            name: "GeoqLayersTests",
            dependencies: [
                "GeoqLayers", "GeoqQuery", "GeoqStore", "GeoqCore", "GeoqFormats", "GeoqGEOS", "GeoqPROJ",
                "GeoqIncidents", "GeoqJSON", "GeoqSchedule", "GeoqNearby", "GeoqTestSupport",
            ]),
        .testTarget(
            name: "GeoqAccessTests",
            dependencies: [
                "GeoqAccess", "GeoqStore", "GeoqTestSupport", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "GeoqPushTests",
            dependencies: [
                "GeoqPush", "GeoqAccess", "GeoqTestSupport", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(name: "GeoqStoreTests", dependencies: ["GeoqStore", "GeoqCore", "CSQLite", "GeoqTestSupport"]),
        // The PostgreSQL store, and the layers, the incident store and the tracking store over it
        // (beside the same over a GeoPackage where a test compares the two).
        .testTarget(
            name: "GeoqPostGISTests",
            dependencies: [
                "GeoqPostGIS", "GeoqLayers", "GeoqStore", "GeoqCore", "GeoqQuery", "GeoqPROJ", "GeoqIncidents",
                "GeoqTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "GeoqCLITests",
            dependencies: [
                "GeoqCLI", "GeoqCommands", "GeoqServerCLI", "GeoqFormats", "GeoqLayers", "GeoqQuery", "GeoqParking",
                "GeoqTestSupport", "GeoqStore", "GeoqPostGIS", "GeoqTiles", "GeoqAccess", "GeoqPush",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ], exclude: ["Golden"]),
        .testTarget(name: "GeoqNearbyTests", dependencies: ["GeoqNearby", "GeoqCore", "GeoqPROJ", "GeoqTestSupport"]),
        .testTarget(
            name: "GeoqARTests", dependencies: ["GeoqAR", "GeoqCore", "GeoqJSON", "GeoqPROJ", "GeoqTestSupport"]),
        .testTarget(name: "GeoqTripsTests", dependencies: ["GeoqTrips", "GeoqCore", "GeoqPROJ", "GeoqTestSupport"]),
        .testTarget(name: "GeoqFallasTests", dependencies: ["GeoqFallas"]),
        .testTarget(name: "GeoqScheduleTests", dependencies: ["GeoqSchedule", "GeoqTestSupport"]),
        .testTarget(name: "GeoqFetchTests", dependencies: ["GeoqFetch", "GeoqTestSupport"]),
        .testTarget(
            name: "GeoqIncidentsTests",
            dependencies: ["GeoqIncidents", "GeoqQuery", "GeoqCore", "GeoqFormats", "GeoqPROJ", "GeoqTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "GeoqTariffsTests", dependencies: ["GeoqTariffs", "GeoqSchedule", "GeoqTestSupport"]),
        .testTarget(
            name: "GeoqAPITests",
            dependencies: [
                "GeoqAPI", "GeoqSnapshot", "GeoqCore", "GeoqLayers", "GeoqQuery", "GeoqNearby", "GeoqPROJ",
                "GeoqParking", "GeoqTariffs", "GeoqGEOS",
                "GeoqSchedule", "GeoqIncidents", "GeoqAR", "GeoqJSON", "GeoqTestSupport", "GeoqTiles",
            ]),
        .testTarget(
            name: "GeoqServerTests",
            dependencies: [
                "GeoqServer", "GeoqCore", "GeoqAPI", "GeoqSnapshot", "GeoqPROJ", "GeoqFormats", "GeoqLayers",
                "GeoqQuery",
                "GeoqTariffs", "GeoqParking", "GeoqTestSupport", "GeoqHooks", "GeoqStore", "GeoqPostGIS", "GeoqAccess",
                "GeoqJSON", "GeoqSchedule", "GeoqTracking", "GeoqPush",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ], exclude: ["Golden"]),
        .testTarget(
            name: "GeoqParkingTests",
            dependencies: [
                "GeoqParking", "GeoqTariffs", "GeoqSchedule", "GeoqLayers", "GeoqQuery", "GeoqCore", "GeoqPROJ",
                "GeoqJSON", "GeoqTestSupport",
            ]),
        .testTarget(
            name: "GeoqTrackingTests",
            dependencies: [
                "GeoqTracking", "GeoqParking", "GeoqTariffs", "GeoqLayers", "GeoqQuery", "GeoqCore", "GeoqTestSupport",
            ]),
    ]
)
