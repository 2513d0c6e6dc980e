import CGEOS

/// The owner of one GEOS context handle (`GEOSContextHandle_t`), the root of every GEOS object.
///
/// Ownership: the context creates its handle with `GEOS_init_r` and frees it with
/// `GEOS_finish_r` when the last reference goes away. Every object made through it
/// (``GEOSGeometry``, ``GEOSPreparedGeometry``, ``GEOSSTRtree``) keeps a strong reference to
/// its context, so the handle always outlives them.
///
/// Thread rule: a context and everything made with it belong to one thread or task at a time
/// (GEOS contexts and prepared geometries are not thread-safe). The type is deliberately not
/// `Sendable`; make one context per thread, task or actor. No raw pointer leaves this module.
///
/// Errors: GEOS reports failures through a message handler; the context installs one that
/// records the last message, and every failed call throws a ``GEOSError`` carrying it.
public final class GEOSContext {
    /// The GEOS handle. Valid from `init` until `deinit`; read only by this module's owners.
    let handle: GEOSContextHandle_t
    /// Receives GEOS's error and notice messages (the handlers' user data points at it).
    private let messages: GEOSMessageBox
    /// Created on first use, destroyed with the context.
    private var wktReader: OpaquePointer?
    private var wktWriter: OpaquePointer?

    /// Creates a context with error and notice handlers installed.
    ///
    /// `GEOS_init_r` fails only when memory is exhausted; that stops the process with a
    /// message rather than making every caller handle an error that cannot otherwise happen.
    public init() {
        guard let handle = GEOS_init_r() else {
            fatalError("GEOS_init_r returned no context (out of memory)")
        }
        let messages = GEOSMessageBox()
        // Unretained: the box is a stored property of this context, and the handle (the only
        // holder of the pointer) is finished in deinit, before the box is released.
        let userData = Unmanaged.passUnretained(messages).toOpaque()
        GEOSContext_setErrorMessageHandler_r(
            handle,
            { message, userData in
                guard let userData else { return }
                let box = Unmanaged<GEOSMessageBox>.fromOpaque(userData).takeUnretainedValue()
                box.lastError = message.map { String(cString: $0) } ?? "(no message)"
            }, userData)
        GEOSContext_setNoticeMessageHandler_r(
            handle,
            { message, userData in
                guard let userData else { return }
                let box = Unmanaged<GEOSMessageBox>.fromOpaque(userData).takeUnretainedValue()
                box.lastNotice = message.map { String(cString: $0) }
            }, userData)
        self.handle = handle
        self.messages = messages
    }

    deinit {
        if let wktReader { GEOSWKTReader_destroy_r(handle, wktReader) }
        if let wktWriter { GEOSWKTWriter_destroy_r(handle, wktWriter) }
        GEOS_finish_r(handle)
    }

    /// The last notice GEOS reported on this context (informational; never an error).
    public var lastNotice: String? { messages.lastNotice }

    /// The version of the linked GEOS library, e.g. `"3.11.1-CAPI-1.17.1"`.
    public static var version: String { String(cString: GEOSversion()) }

    // MARK: - Internal helpers for the owners in this module

    /// The error for a failed call to `operation`, consuming the captured GEOS message.
    func error(_ operation: String) -> GEOSError {
        let message = messages.lastError ?? "GEOS reported a failure without a message"
        messages.lastError = nil
        return GEOSError(operation: operation, message: message)
    }

    /// Forgets any captured error, before a call whose failure is only visible through the
    /// error handler (a `void` GEOS function).
    func clearError() {
        if messages.lastError != nil { messages.lastError = nil }
    }

    /// Whether GEOS reported an error since the last ``clearError()`` or ``error(_:)``.
    var hasPendingError: Bool { messages.lastError != nil }

    /// Maps a GEOS predicate result (`1` true, `0` false, `2` exception) to `Bool`.
    @inline(__always)
    func predicateResult(_ result: CChar, _ operation: String) throws(GEOSError) -> Bool {
        switch result {
        case 1: return true
        case 0: return false
        default: throw error(operation)
        }
    }

    /// Checks that `geometry` was made by this context (mixing contexts breaks confinement).
    @inline(__always)
    func checkOwnership(_ geometry: GEOSGeometry) {
        precondition(geometry.context === self, "GEOSGeometry used with a context that did not create it")
    }

    /// Copies a GEOS-allocated C string and frees it with `GEOSFree_r`.
    func takeString(_ pointer: UnsafeMutablePointer<CChar>) -> String {
        defer { GEOSFree_r(handle, pointer) }
        return String(cString: pointer)
    }

    /// The context's WKT reader, created on first use.
    func reader() throws(GEOSError) -> OpaquePointer {
        if let wktReader { return wktReader }
        guard let created = GEOSWKTReader_create_r(handle) else { throw error("WKTReader_create") }
        wktReader = created
        return created
    }

    /// The context's WKT writer (trimmed numbers, up to 3 dimensions), created on first use.
    func writer() throws(GEOSError) -> OpaquePointer {
        if let wktWriter { return wktWriter }
        guard let created = GEOSWKTWriter_create_r(handle) else { throw error("WKTWriter_create") }
        GEOSWKTWriter_setTrim_r(handle, created, 1)
        GEOSWKTWriter_setOutputDimension_r(handle, created, 3)
        wktWriter = created
        return created
    }
}

@available(*, unavailable, message: "A GEOS context belongs to one thread or task; create one per task")
extension GEOSContext: Sendable {}

/// Where GEOS's message handlers leave their text. Owned by exactly one ``GEOSContext`` and
/// touched only from the thread using it (GEOS calls the handlers synchronously).
final class GEOSMessageBox {
    var lastError: String?
    var lastNotice: String?
}
