import Foundation
import GeoqCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading whole files, with errors that name them.
enum FileLoading {
    /// Files from this size on are read in two halves on two threads.
    static let splitThreshold = 4 << 20

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
        // Not memory-mapped: a file truncated by another process while mapped would crash the reader.
        if let large = try largeFile(at: path) { return large }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw FormatError(.unreadableFile, file: path, message: "cannot be read: \(error.localizedDescription)")
        }
    }

    /// The bytes of the file at `path` if it has ``splitThreshold`` bytes or more (nil if
    /// fewer), read in two halves at once: copying a file from the page cache, with the page
    /// faults of the memory it goes to, is processor work that two cores share (the world's
    /// time zones, 226 MB: 61 to 76 ms against 112 to 118 ms in one piece).
    private static func largeFile(at path: String) throws(FormatError) -> Data? {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw unreadable(path, errno) }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0 else { throw unreadable(path, errno) }
        let size = Int(info.st_size)
        guard size >= splitThreshold, let memory = malloc(size) else { return nil }
        let target = SharedMemory(base: memory)
        let middle = size / 2
        let secondHalf = Alongside { readFully(file, into: target.base, range: middle..<size) }
        let firstFailure = readFully(file, into: memory, range: 0..<middle)
        guard let failure = firstFailure ?? secondHalf.result() else {
            return Data(bytesNoCopy: memory, count: size, deallocator: .free)
        }
        free(memory)
        guard failure != 0 else {
            throw FormatError(
                .unreadableFile, file: path, message: "cannot be read: it became shorter while being read")
        }
        throw unreadable(path, failure)
    }

    /// Reads bytes `range` of `file` to the same offsets from `base`: nil when all were read,
    /// else the `errno` of the failure, or 0 when the file ended first.
    private static func readFully(_ file: Int32, into base: UnsafeMutableRawPointer, range: Range<Int>) -> Int32? {
        var offset = range.lowerBound
        while offset < range.upperBound {
            let count = pread(file, base + offset, range.upperBound - offset, off_t(offset))
            if count < 0, errno == EINTR { continue }
            if count < 0 { return errno }
            if count == 0 { return 0 }
            offset += count
        }
        return nil
    }

    private static func unreadable(_ path: String, _ code: Int32) -> FormatError {
        FormatError(.unreadableFile, file: path, message: "cannot be read: \(String(cString: strerror(code)))")
    }

    /// The memory a file is read into, for the thread that reads its second half: each thread
    /// writes only its own half, and the caller waits for the other before using any of it.
    private struct SharedMemory: @unchecked Sendable {
        let base: UnsafeMutableRawPointer
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
