import ArgumentParser
import Foundation
import GeoqAPI
import GeoqAccess
import GeoqCommands
import GeoqHooks
import GeoqLayers
import GeoqPostGIS
import GeoqPush
import GeoqServer
import GeoqSnapshot
import Logging

/// `geoq serve`: the HTTP JSON service over the same layers the other commands read.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: GeoqRoot.ServerAbstract.serve,
        discussion: """
            Loads and indexes every layer (the store first, then catalog files), then \
            listens. Binds to 127.0.0.1 unless --host says otherwise. Ctrl-C or SIGTERM stops it \
            after the requests in flight are answered. SIGHUP, or a change of the store file \
            (checked every 2 s, e.g. after `geoq import`), reloads: the new data is loaded and \
            indexed aside and swapped in at once; a failed reload keeps the old data.

            HTTPS: with --tls-cert and --tls-key (PEM) the service speaks TLS 1.2 or 1.3 only. \
            SIGHUP reads both files again: new connections get the new certificate, open ones \
            keep theirs, and files that cannot be used are logged while the old certificate \
            stays. docs/SECURITY.md says when nginx in front is the better choice.

            Replicas: with --store postgresql://user@host:port/db (or $GEOQ_STORE) the service \
            is one of many over a shared PostGIS store. It answers from its snapshot, LISTENs \
            for the store's change announcements and reloads the layers that changed; device \
            tracks, events and webhooks live in the database, so any replica takes any request. \
            A replica that loses the database keeps answering (/readyz says "stale") and \
            reconnects; one that has not reached it yet answers /readyz with a 503 saying why. \
            docs/DEPLOYMENT.md has nginx in front.

            Endpoints (GET unless said):
              /healthz, /readyz         up; layers loaded (/readyz is a 503 until then)
              /v1/sector?lat=&lon=[&layer=]
                                        which-sector; GeoJSON for application/geo+json
              POST /v1/sector:batch[?layer=]
                                        which-sector for NDJSON or CSV lines, or a GeoJSON
                                        FeatureCollection of points; answers in NDJSON
              /v1/nearest?lat=&lon=&layer=[&n=][&within=][&category=...][&order=]
              /v1/services?lat=&lon=[&type=...][&n=][&within=]
              /v1/ar?lat=&lon=&heading=[&pitch=][&roll=][&hfov=][&layer=]...
              /v1/tariff?zone=&(minutes=|euros=)[&start=][&city=][&reminder=][&lang=]
              /v1/park?lat=&lon=[&zone=][&minutes=|&euros=][&at=][&city=][&lang=]
              /v1/incidents[?lat=&lon=[&within=]][&type=...][&since=][&n=]
              /v1/layers                the layers and what was loaded
              /v1/layers/{name}[?bbox=W,S,E,N][&simplify=M]
                                        a layer's features as GeoJSON (ETag, gzip)
              /[?lat=&lon=][&lang=]     the map page (Leaflet from --assets)
              /openapi.json, /metrics   the OpenAPI 3.1 document, Prometheus metrics

            Access: the read endpoints above are open (unless --private-reads); POST /v1/fixes \
            and /v1/devices/{id}/token need a key with the track scope (or a device token), \
            /v1/events events, /v1/hooks hooks, /metrics and DELETE /v1/devices/{id} admin \
            (`geoq keys add`; clients send Authorization: Bearer KEY). Only the Host values of \
            --allowed-host are served; writes take JSON or NDJSON bodies only; browsers' pages \
            of other origins are refused unless --cors-origin names them. Requests without a \
            key are limited per client address (--rate-anonymous), each key to its rate; a 429 \
            says when to come back. docs/SECURITY.md has the threat model and the defaults.

            Errors are RFC 9457 problem+json bodies that name the parameter at fault. \
            Limits: a body over --max-body-bytes or a batch over --max-batch points is \
            refused (413); a batch running past --request-timeout stops with a last line \
            saying how many points were answered.

            Slow or idle clients: a request head must arrive within --header-timeout \
            (a partial one is answered 408, a silent connection closed); a keep-alive \
            connection is closed after --idle-timeout without a request. At --max-connections \
            a newcomer closes the connections unused the longest; it is refused only when every \
            connection has a request in progress. A request in progress is not cut by these; \
            its body must arrive within --request-timeout (else 408).

            Examples:
              geoq serve
              geoq serve --port 9090 --store /var/lib/geoq/geoq.gpkg --log-requests
              geoq serve --port 8081 --store postgresql://geoq@db:5432/city
              geoq serve --store \\
                'postgresql://geoq@db/city?sslmode=verify-full&sslrootcert=/etc/db-ca.pem'
              geoq serve --threads 1
              geoq serve --private-reads --page-key "$READ_KEY"
              geoq serve --host 0.0.0.0 --allowed-host geoq.example.org --private-reads
              geoq serve --metrics-host 127.0.0.1 --retain-events 7d --max-devices 5000
              geoq serve --assets /opt/leaflet       # Leaflet's files from another folder
              geoq serve --max-batch 50000 --max-body-bytes 16777216 --request-timeout 60
              geoq serve --header-timeout 10 --idle-timeout 30 --max-connections 2000
              geoq serve --host 0.0.0.0 --port 8443 --allowed-host geoq.example.org \\
                --tls-cert /etc/geoq/fullchain.pem --tls-key /etc/geoq/privkey.pem
              curl 'http://127.0.0.1:8080/v1/sector?lat=42.81&lon=-1.64'
              curl 'https://geoq.example.org:8443/v1/sector?lat=42.81&lon=-1.64'
              curl -H 'Content-Type: application/x-ndjson' --data-binary @cars.ndjson \\
                'http://127.0.0.1:8080/v1/sector:batch'

            Exit status: 0 after a clean stop, 64 a store address or TLS file geoq cannot use, 66 missing data \
            file or database, 69 a database without PostGIS or not reachable with the TLS its sslmode asks \
            for, 70 the server failed, 77 the database refused the credentials.
            """)

    @Option(name: .long, help: "Address to listen on (127.0.0.1: this machine only).")
    var host = "127.0.0.1"

    @Option(name: .long, help: "TCP port to listen on.")
    var port = 8080

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Event-loop threads answering connections (default: one per core the process may run on).",
            discussion:
                "One thread leaves the other cores to other work and gives steadier latency; more answer more requests at once."
        ))
    var threads: Int?

    @Option(name: .long, help: StoreHelp.read)
    var store: String?

    @Option(
        name: .long,
        help: "The folder holding Leaflet (leaflet.js, leaflet.css, images/) for the map page at /.")
    var assets = PageFiles.defaultAssetsDirectory

    @Flag(
        name: .long,
        help: "Log every answered request (method, path, status, duration, request id; swift-log) to standard error.")
    var logRequests = false

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body read, in bytes.")
    var maxBodyBytes = ServiceLimits().maxBodyBytes

    @Option(name: .customLong("max-batch"), help: "The most points one POST /v1/sector:batch answers.")
    var maxBatch = ServiceLimits().maxBatchPoints

    @Option(
        name: .customLong("request-timeout"),
        help: "Seconds a batch may take before it stops, and a request body to arrive in full (else 408).")
    var requestTimeout: Double = 30

    @Option(
        name: .customLong("header-timeout"),
        help: ArgumentHelp(
            "Seconds a request head may take to arrive.",
            discussion:
                "Counted from the connection's opening, or from the first byte of a later request; a partial head is answered 408, a silent connection closed."
        ))
    var headerTimeout: Double = 60

    @Option(
        name: .customLong("idle-timeout"),
        help: "Seconds a keep-alive connection may stay open between requests.")
    var idleTimeout: Double = 75

    @Option(
        name: .customLong("max-connections"),
        help: ArgumentHelp(
            "The most connections open at once (default: 10000, or 3/4 of the descriptor limit when lower).",
            discussion:
                "At the cap a newcomer closes the connections unused the longest (silent, partial head, idle); it is refused only when every connection has a request in progress."
        ))
    var maxConnections = ConnectionLimits.defaultMaxConnections

    @OptionGroup(title: "HTTPS") var tls: ServeTLSOptions

    @OptionGroup(title: "Access and tracking limits") var access: ServeAccessOptions

    @OptionGroup(title: "Webhook destinations") var hookDestinations: HookDestinationOptions

    // The service's clock set this many seconds ahead of the system's, for the tests of what
    // falls due on a city's regulated clock (a ticket's reminders); hidden from --help.
    @Option(name: .customLong("clock-offset"), help: .hidden)
    var clockOffset: Double = 0

    var connectionLimits: ConnectionLimits {
        ConnectionLimits(
            headerTimeout: .milliseconds(Int(headerTimeout * 1000)),
            idleTimeout: .milliseconds(Int(idleTimeout * 1000)),
            maxConnections: maxConnections)
    }

    var limits: ServiceLimits {
        ServiceLimits(
            maxBodyBytes: maxBodyBytes, maxBatchPoints: maxBatch,
            requestTimeout: .milliseconds(Int(requestTimeout * 1000)))
    }

    func validate() throws {
        guard maxBodyBytes >= 1024 else {
            throw ValidationError("--max-body-bytes must be at least 1024, got \(maxBodyBytes)")
        }
        guard maxBatch >= 1 else { throw ValidationError("--max-batch must be at least 1, got \(maxBatch)") }
        guard requestTimeout.isFinite, requestTimeout >= 0.001, requestTimeout <= 86_400 else {
            throw ValidationError("--request-timeout must be between 0.001 and 86400 seconds, got \(requestTimeout)")
        }
        for (option, seconds) in [("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout)] {
            guard seconds.isFinite, seconds >= 0.001, seconds <= 86_400 else {
                throw ValidationError("\(option) must be between 0.001 and 86400 seconds, got \(seconds)")
            }
        }
        guard (1...1_000_000).contains(maxConnections) else {
            throw ValidationError("--max-connections must be between 1 and 1000000, got \(maxConnections)")
        }
        guard (1...65_535).contains(port) else {
            throw ValidationError("--port must be between 1 and 65535, got \(port)")
        }
        if let threads, !(1...256).contains(threads) {
            throw ValidationError("--threads must be between 1 and 256, got \(threads)")
        }
        guard !host.isEmpty else { throw ValidationError("--host must not be empty") }
    }

    func run() async throws {
        let storeAddress = try StoreAddress.option(store, format: .text)
        // Before the data, which takes a while to load: a wrong file is said at once.
        let certificate = try serviceTLS()
        let locations = try ExitStatus.reporting(format: .text) { () throws(LayerError) in
            try DataLocations.resolveForCommand()
        }
        let chosen = storeAddress ?? locations.store
        let startup: Startup
        switch chosen {
        case .geoPackage(let file): startup = try startFromFile(file, store: chosen, certificate: certificate)
        case .shared(let database as PostGISBackend):
            startup = try startReplica(of: database, store: chosen, certificate: certificate)
        case .shared(let database):
            // A replica follows its store through PostgreSQL's LISTEN; the command line reads
            // every address with the PostgreSQL backend, so another cannot come here.
            FileHandle.standardError.write(Data("geoq serve: cannot follow the changes of \(database)\n".utf8))
            throw ExitCode(ExitStatus.usage)
        }
        let trackingStore = TrackingStore(address: chosen)
        if let pageKey = access.pageKey {
            let refusal: String?
            do {
                refusal = APIKey.pageKeyRefusal(pageKey, keys: try trackingStore.keys())
            } catch {
                refusal = "the store's keys could not be read: \(error)"
            }
            if let refusal {
                FileHandle.standardError.write(Data("geoq serve: --page-key: \(refusal)\n".utf8))
                throw ExitCode(ExitStatus.usage)
            }
        }
        let page = PageFiles(assetsDirectory: assets, pageKey: access.pageKey)
        if let missing = page.missingAssetsMessage {
            FileHandle.standardError.write(Data("geoq serve: \(missing)\n".utf8))
        }
        let offset = clockOffset
        let tracking = Tracking(
            store: trackingStore,
            delivery: HookDelivery(
                store: trackingStore, options: DeliveryOptions(destinations: hookDestinations.rules)),
            limits: access.limits, push: webPush(trackingStore), now: { Date().addingTimeInterval(offset) })
        let link = startup.state.link
        let address = ServerAddress(host: host, port: port, threads: threads)
        let host = host
        let loaded = startup.loaded
        let scheme = certificate == nil ? "http" : "https"
        do {
            try await runService(
                address: address, state: startup.state, tls: certificate, reloader: startup.reloader, limits: limits,
                connections: connectionLimits, logRequests: logRequests, page: page, tracking: tracking,
                access: access.rules(listeningOn: host),
                metrics: RequestMetrics(more: { tracking.metricsExposition() + (link?.exposition() ?? "") })
            ) { port in
                FileHandle.standardError.write(Data("geoq serve: \(loaded) on \(scheme)://\(host):\(port)\n".utf8))
            }
        } catch {
            let message = address.listenFailure(error) ?? "\(error)"
            FileHandle.standardError.write(Data("geoq serve: \(message)\n".utf8))
            throw ExitCode(ExitStatus.software)
        }
    }

    /// The service's Web Push over its store; the VAPID key (`geoq push keys`) is read when
    /// first needed, so that neither a store without one nor a database not reachable yet stops
    /// the service (the push endpoints say what is missing).
    func webPush(_ store: TrackingStore) -> WebPush {
        let keys = PushKeySource {
            let tables = try store.pushTables()
            guard let raw = try tables.storedSetting(PushCommand.keySetting) else { return nil }
            let contact = try tables.storedSetting(PushCommand.contactSetting)
            return (try VAPIDKey(raw: raw), contact.map { String(decoding: $0, as: UTF8.self) })
        }
        // Push services take a message at once or say when to try again: the sweep looks for
        // what fell due (news queued by `geoq push send`) every second.
        let options = DeliveryOptions(destinations: hookDestinations.rules, sweepInterval: .seconds(1))
        let delivery = PushDelivery(store: store, keys: keys, options: options)
        return WebPush(store: store, delivery: delivery, keys: keys, clockOffset: clockOffset)
    }

    /// The TLS context of --tls-cert and --tls-key, or nil without them; a file that cannot be
    /// used is a usage error naming its option, the file and what is wrong with it.
    func serviceTLS() throws -> ServiceTLS? {
        guard let files = tls.files else { return nil }
        do {
            return try ServiceTLS(files: files)
        } catch {
            FileHandle.standardError.write(
                Data("geoq serve: \(ServeTLSOptions.option(for: error.file)): \(error)\n".utf8))
            throw ExitCode(ExitStatus.usage)
        }
    }

    /// The first snapshot and how it is kept fresh.
    struct Startup {
        var state: ServiceState
        var reloader: ReloadService
        /// What was loaded, for the line printed once listening.
        var loaded: String
    }

    /// Over a GeoPackage: load it, and watch the file.
    func startFromFile(_ file: URL, store: StoreAddress, certificate: ServiceTLS?) throws -> Startup {
        let library = try ExitStatus.reporting(format: .text) { () throws(LayerError) in
            try LayerLibrary(locations: DataLocations.resolveForCommand(), store: store)
        }
        let data = Self.load(from: library)
        if !FileManager.default.fileExists(atPath: file.path) {
            FileHandle.standardError.write(
                Data(
                    ("geoq serve: no store at \(file.path): the catalog's layers are read from their "
                        + "source files (the file is watched; `geoq import` creates it)\n").utf8))
        }
        let state = ServiceState(data)
        // The service's own writes (device tracks, events, the webhook outbox) change the store
        // file but not its layers: only a change of the layers reloads.
        let reloader = ReloadService(
            state: state, watching: file.path, contents: StoreContents.signature(ofStoreAt:),
            certificate: certificate, logger: Logger(label: "geoq.reload")
        ) {
            // A new library each time: it opens the store afresh (the old one stays open for
            // the snapshot being replaced until that is released).
            try ServiceData.load(from: LayerLibrary(locations: DataLocations.resolveForCommand(), store: store))
        }
        return Startup(state: state, reloader: reloader, loaded: Self.summary(of: data))
    }

    /// Over PostgreSQL, as a replica: load the snapshot, then follow the store's announcements.
    /// A wrong address, password or database, or no PostGIS, ends the command (the operator
    /// must fix it); a server that does not answer yet does not: the replica starts unready
    /// (`/readyz` says why) and loads once the server answers.
    func startReplica(of database: PostGISBackend, store: StoreAddress, certificate: ServiceTLS?) throws -> Startup {
        let address = database.address
        let link = StoreLink(store: address.description)
        @Sendable func version() throws(LayerError) -> String {
            String(try StoreContents.layerVersions(of: database).values.max() ?? 0)
        }
        var data: ServiceData?
        var loaded = "no layers yet (waiting for \(address.description))"
        do throws(LayerError) {
            let started = ContinuousClock.now
            let library = try LayerLibrary(locations: DataLocations.resolveForCommand(), store: store)
            // The versions the library read its layers at (one connection, not a second one).
            let current = String(library.layerVersions.values.max() ?? 0)
            let snapshot = Self.load(from: library)
            data = snapshot
            loaded = Self.summary(of: snapshot) + " from \(address.description) at version \(current)"
            link.loaded(version: current, seconds: Self.seconds(since: started))
        } catch .store(let error) where error.isTransient {
            link.lost(error.description)
            FileHandle.standardError.write(
                Data("geoq serve: \(error); /readyz answers 503 until it answers, retrying\n".utf8))
        } catch {
            ExitStatus.report(error, format: .text)
            throw ExitCode(ExitStatus.of(error))
        }
        let state = ServiceState(data, link: link)
        let reloader = ReloadService(
            state: state, watching: nil,
            following: StoreFollowing(listener: ChangeListener(address: address), link: link, version: version),
            certificate: certificate, logger: Logger(label: "geoq.reload")
        ) {
            try ServiceData.load(from: LayerLibrary(locations: DataLocations.resolveForCommand(), store: store))
        }
        return Startup(state: state, reloader: reloader, loaded: loaded)
    }

    /// Loads every layer, saying on standard error which could not be served.
    static func load(from library: LayerLibrary) -> ServiceData {
        let data = ServiceData.load(from: library)
        for layer in data.layers where layer.error != nil {
            FileHandle.standardError.write(Data("geoq serve: layer \(layer.name) not served: \(layer.error!)\n".utf8))
        }
        return data
    }

    static func summary(of data: ServiceData) -> String {
        "\(data.sectorLookups.count) polygon and \(data.pointLayers.count) point layers"
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
