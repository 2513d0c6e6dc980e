import Foundation
import GeoqAPI
import GeoqPostGIS
import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads the service's data on SIGHUP and when the store file changes (its inode, modification
/// time or size, polled) in what the snapshot is made of (`contents`, when given: the service's
/// own writes of device tracks and events change the file but not its layers), runs beside the
/// HTTP server and stops with it.
///
/// A reload builds the new snapshot aside (the old one keeps answering meanwhile) and swaps it
/// in at once; a reload that fails leaves the old snapshot in place and logs why.
///
/// SIGHUP also reads the TLS certificate and key again, when the service has them, before the
/// data: new connections get the new certificate; files that cannot be used are logged and the
/// certificate in use stays.
public struct ReloadService: Service {
    let state: ServiceState
    let load: @Sendable () throws -> ServiceData
    let watchedFile: String?
    let pollInterval: Duration
    let logger: Logger
    let trapSIGHUP: Bool
    /// The watched file as it was when the service was made (the data was loaded from it).
    let initialSignature: String?
    /// What of the watched file the snapshot is made of; nil to reload on any change of the file.
    let contents: (@Sendable (String) -> String?)?
    let initialContents: String?
    /// The shared store followed through its change announcements, if any.
    let following: StoreFollowing?
    /// The service's TLS certificate, read again at each SIGHUP.
    let certificate: ServiceTLS?

    /// - Parameters:
    ///   - load: builds a new snapshot (opens the store and indexes every layer).
    ///   - watchedFile: the store file to watch, if any.
    ///   - trapSIGHUP: false in tests that must not touch the process's signal handling.
    ///   - contents: what of the watched file the snapshot is made of (its layers); a change of
    ///     the file that leaves it the same does not reload.
    ///   - certificate: the service's TLS certificate and key, read again on SIGHUP.
    public init(
        state: ServiceState, watching watchedFile: String?, every pollInterval: Duration = .seconds(2),
        contents: (@Sendable (String) -> String?)? = nil, following: StoreFollowing? = nil,
        certificate: ServiceTLS? = nil, trapSIGHUP: Bool = true, logger: Logger,
        load: @escaping @Sendable () throws -> ServiceData
    ) {
        self.state = state
        self.load = load
        self.watchedFile = watchedFile
        self.pollInterval = pollInterval
        self.logger = logger
        self.trapSIGHUP = trapSIGHUP
        initialSignature = watchedFile.flatMap(Self.signature(of:))
        self.contents = contents
        initialContents = watchedFile.flatMap { file in contents?(file) }
        self.following = following
        self.certificate = certificate
    }

    /// Reads the TLS certificate and key again; on failure keeps the certificate in use. Returns
    /// whether the new files are served.
    @discardableResult
    public func reloadCertificate(reason: String) -> Bool {
        guard let certificate else { return false }
        do {
            try certificate.reload()
            logger.info(
                "certificate reloaded",
                metadata: ["reason": "\(reason)", "certificate": "\(certificate.files.certificate)"])
            return true
        } catch {
            logger.error(
                "certificate reload failed; the previous certificate stays",
                metadata: ["reason": "\(reason)", "error": "\(error)"])
            return false
        }
    }

    /// Loads a new snapshot and swaps it in; on failure keeps the old one. Returns whether it
    /// swapped.
    @discardableResult
    public func reload(reason: String) -> Bool {
        let started = ContinuousClock.now
        do {
            let data = try load()
            state.replace(with: data)
            logger.info(
                "reloaded",
                metadata: [
                    "reason": "\(reason)", "generation": "\(state.generation)",
                    "polygonLayers": "\(data.sectorLookups.count)", "pointLayers": "\(data.pointLayers.count)",
                    "duration": "\(ContinuousClock.now - started)",
                ])
            return true
        } catch {
            logger.error(
                "reload failed; the previous data stays", metadata: ["reason": "\(reason)", "error": "\(error)"])
            return false
        }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                if trapSIGHUP {
                    group.addTask {
                        for await _ in await UnixSignalsSequence(trapping: .sighup) {
                            reloadCertificate(reason: "SIGHUP")
                            reload(reason: "SIGHUP")
                        }
                    }
                }
                if let watchedFile {
                    group.addTask { await watch(watchedFile) }
                }
                if let following {
                    group.addTask { await follow(following) }
                }
            }
        }
    }

    /// Polls the file's modification time and size; a change (or the file appearing) reloads.
    func watch(_ path: String) async {
        var last = initialSignature
        var lastContents = initialContents
        while !Task.isCancelled {
            try? await Task.sleep(for: pollInterval)
            let now = Self.signature(of: path)
            guard now != last else { continue }
            last = now
            if let contents {
                let nowContents = contents(path)
                guard nowContents != lastContents else { continue }
                lastContents = nowContents
            }
            reload(reason: "store file changed")
        }
    }

    /// Follows the shared store: a change announced, or a (re)connection after which changes may
    /// have been missed, reloads when the store's version differs from the snapshot's; a lost
    /// connection leaves the snapshot answering and is shown on the link.
    func follow(_ following: StoreFollowing) async {
        let link = following.link
        await following.listener.run { event in
            switch event {
            case .connected:
                link.connected()
                reloadIfChanged(following, reason: "store connected")
            case .changed(let version):
                link.heardChange()
                // Versions come from one sequence: an announcement no newer than the snapshot
                // (the rest of a burst a reload already covered) needs no read of the store.
                if let announced = Int64(version), let held = link.current.loadedVersion.flatMap({ Int64($0) }),
                    announced <= held, state.data != nil
                {
                    return
                }
                reloadIfChanged(following, reason: "store version \(version) announced")
            case .disconnected(let error, let retryIn):
                if link.current.connected || link.current.lastError != error.description {
                    logger.warning(
                        "store link down; answering from the last snapshot",
                        metadata: ["error": "\(error)", "retryIn": "\(retryIn)"])
                }
                link.lost(error.description)
            }
        }
    }

    /// Reloads unless the store is still at the snapshot's version (several announcements of
    /// one burst, or a reconnection with nothing missed, cost one version read each).
    func reloadIfChanged(_ following: StoreFollowing, reason: String) {
        let started = ContinuousClock.now
        let version: String
        do { version = try following.version() } catch {
            logger.error("cannot read the store's version", metadata: ["reason": "\(reason)", "error": "\(error)"])
            following.link.reloadFailed()
            return
        }
        guard state.data == nil || following.link.current.loadedVersion != version else { return }
        if reload(reason: reason) {
            let elapsed = ContinuousClock.now - started
            following.link.loaded(
                version: version,
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        } else {
            following.link.reloadFailed()
        }
    }

    /// The file's and its write-ahead log's: an import into a store the service writes tracks
    /// to commits to the log, and the file itself changes only at the log's next checkpoint.
    static func signature(of path: String) -> String? {
        guard let file = statSignature(path) else { return nil }
        return file + " " + (statSignature(path + "-wal") ?? "-")
    }

    private static func statSignature(_ path: String) -> String? {
        // stat(2) itself: FileManager's attributes also look up the owner's name (reading
        // /etc/passwd and /etc/group on every poll), and round the time to a Double.
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_ino)/\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)/\(info.st_size)"
    }
}

/// What following a shared store takes: the listener of its change announcements, the link the
/// service reports, and how to read the store's current version (compared with the snapshot's).
public struct StoreFollowing: Sendable {
    public let listener: ChangeListener
    public let link: StoreLink
    public let version: @Sendable () throws -> String

    public init(listener: ChangeListener, link: StoreLink, version: @escaping @Sendable () throws -> String) {
        self.listener = listener
        self.link = link
        self.version = version
    }
}
