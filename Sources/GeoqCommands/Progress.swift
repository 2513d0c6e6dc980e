import Foundation

/// Progress lines on standard error for long work, only when it is a terminal: quiet when
/// piped or redirected.
struct Progress {
    let enabled = isatty(STDERR_FILENO) != 0

    func note(_ line: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("geoq: \(line)\n".utf8))
    }
}
