import NIOSSL
import Synchronization

/// The TLS context the service's new connections are served with, made from ``TLSFiles`` and
/// made again from them on request (SIGHUP, through ``ReloadService``).
///
/// The one owner of the context: a connection takes the current one as it is set up and keeps
/// it to its end, so a renewed certificate reaches new connections while open ones finish with
/// theirs. A reload whose files cannot be used leaves the current context in place.
public final class ServiceTLS: Sendable {
    public let files: TLSFiles
    private let current: Mutex<NIOSSLContext>

    /// Reads and checks both files (blocking file reads: not on an event loop).
    public init(files: TLSFiles) throws(TLSFileError) {
        self.files = files
        current = Mutex(try files.makeContext())
    }

    /// The context for a connection being set up now.
    var context: NIOSSLContext { current.withLock { $0 } }

    /// Reads the files again and serves new connections with them; on an error the context in
    /// use stays and the error says which file is at fault. The files are read outside the lock,
    /// so connections being set up meanwhile do not wait for the disk.
    public func reload() throws(TLSFileError) {
        let fresh = try files.makeContext()
        current.withLock { $0 = fresh }
    }
}
