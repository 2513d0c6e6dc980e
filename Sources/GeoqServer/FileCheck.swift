import Foundation

/// Why a file cannot be read, in the words an operator expects (Foundation's own errors name the
/// file again and hide the reason).
enum FileCheck {
    /// Nil when `path` is a file this process may read.
    static func unreadable(_ path: String) -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return "no such file" }
        if isFolder.boolValue { return "it is a folder" }
        guard FileManager.default.isReadableFile(atPath: path) else { return "permission denied" }
        return nil
    }
}
