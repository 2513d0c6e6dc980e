import CPROJ

/// The owner of one PROJ context (`PJ_CONTEXT*`), the root of every PROJ object.
///
/// Ownership: created with `proj_context_create`, destroyed with `proj_context_destroy` when
/// the last reference goes away. Every ``CoordinateTransformer`` keeps its context alive, so
/// the context always outlives the `PJ` objects made with it.
///
/// Thread rule: a PROJ context and its objects must be used from one thread or task at a
/// time. The type is deliberately not `Sendable`: make one per thread, task or actor.
///
/// Settings: network access is off (grids are never downloaded; `proj.db` is read from the
/// local installation), and a log callback records PROJ's error messages so that thrown
/// ``PROJError``s carry PROJ's real text.
public final class PROJContext {
    /// The PROJ context. Valid from `init` until `deinit`; read only by this module's owners.
    let pointer: OpaquePointer
    private let log: PROJLogBox

    /// Creates a context with networking disabled and PROJ's error log captured.
    ///
    /// `proj_context_create` fails only when memory is exhausted; that stops the process with
    /// a message rather than making every caller handle an error that cannot otherwise happen.
    public init() {
        guard let pointer = proj_context_create() else {
            fatalError("proj_context_create returned no context (out of memory)")
        }
        let log = PROJLogBox()
        // Unretained: the box is a stored property of this context, and the context (the only
        // holder of the pointer) is destroyed in deinit, before the box is released.
        proj_log_func(
            pointer, Unmanaged.passUnretained(log).toOpaque(),
            { userData, level, message in
                guard let userData, let message else { return }
                let box = Unmanaged<PROJLogBox>.fromOpaque(userData).takeUnretainedValue()
                box.record(level: level, String(cString: message))
            })
        proj_log_level(pointer, PJ_LOG_ERROR)
        proj_context_set_enable_network(pointer, 0)
        self.pointer = pointer
        self.log = log
    }

    deinit {
        proj_context_destroy(pointer)
    }

    /// The version of the linked PROJ library, e.g. `"9.1.1"`.
    public static var version: String {
        String(cString: proj_info().version)
    }

    // MARK: - Internal helpers for the owners in this module

    /// Forgets logged messages before an operation whose failure should report only its own.
    func clearLog() { log.clear() }

    /// The error for a failed `operation` on `crs`: PROJ's logged messages, plus the text of
    /// `errno` when it says more than "Unknown error (code ...)", else `fallback`.
    func error(
        crs: String, operation: String, errno: Int32 = 0, fallback: String, pointIndex: Int? = nil
    ) -> PROJError {
        var parts = log.take()
        if errno != 0, let text = proj_context_errno_string(pointer, errno) {
            let s = String(cString: text)
            if !s.hasPrefix("Unknown error"), !parts.contains(where: { $0.contains(s) }) { parts.append(s) }
        }
        if parts.isEmpty { parts = [fallback] }
        return PROJError(crs: crs, operation: operation, message: parts.joined(separator: "; "), pointIndex: pointIndex)
    }
}

@available(*, unavailable, message: "A PROJ context belongs to one thread or task; create one per task")
extension PROJContext: Sendable {}

/// PROJ's logged messages since the last clear (at most a few, newest last). Owned by one
/// ``PROJContext``; PROJ calls the log function synchronously on the thread using it.
final class PROJLogBox {
    private var messages: [String] = []
    private static let limit = 8

    func record(level: Int32, _ message: String) {
        guard level <= Int32(PJ_LOG_ERROR.rawValue) else { return }
        if messages.count == Self.limit { messages.removeFirst() }
        messages.append(message)
    }

    func clear() {
        if !messages.isEmpty { messages.removeAll(keepingCapacity: true) }
    }

    func take() -> [String] {
        defer { messages.removeAll() }
        return messages
    }
}
