import Foundation

/// Reading whole files, with errors that name them.
enum FileLoading {
    /// The file's bytes in one load. Missing file -> ``FormatError/Code/fileNotFound``.
    static func data(at url: URL, what: String? = nil) throws(FormatError) -> Data {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let kind = what.map { "\($0) " } ?? ""
            throw FormatError(.fileNotFound, file: path, message: "no such \(kind)file")
        }
        guard !isDirectory.boolValue else {
            throw FormatError(.unreadableFile, file: path, message: "is a directory, not a file")
        }
        do {
            // Not memory-mapped: a file truncated by another process while mapped would crash the reader.
            return try Data(contentsOf: url)
        } catch {
            throw FormatError(.unreadableFile, file: path, message: "cannot be read: \(error.localizedDescription)")
        }
    }

    /// The sibling with another extension (`x.shp` -> `x.dbf`), trying the extension in lower
    /// and upper case, or nil when neither exists.
    static func sibling(of url: URL, withExtension ext: String) -> URL? {
        let base = url.deletingPathExtension()
        let originalExtension = url.pathExtension
        let preferUpper = !originalExtension.isEmpty && originalExtension == originalExtension.uppercased()
        let order = preferUpper ? [ext.uppercased(), ext.lowercased()] : [ext.lowercased(), ext.uppercased()]
        for candidate in order {
            let u = base.appendingPathExtension(candidate)
            if FileManager.default.fileExists(atPath: u.path) { return u }
        }
        return nil
    }

    /// 1-based line number of byte `offset` in `bytes` (LF, CRLF and lone CR end lines).
    static func lineNumber(ofByteOffset offset: Int, in bytes: some Collection<UInt8>) -> Int {
        var line = 1
        var previous: UInt8 = 0
        for (i, b) in bytes.enumerated() {
            if i >= offset { break }
            if b == 0x0A {
                if previous != 0x0D { line += 1 }
            } else if b == 0x0D {
                line += 1
            }
            previous = b
        }
        return line
    }
}
