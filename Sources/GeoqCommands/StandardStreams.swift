import Foundation

// FileHandle writes are unbuffered: each batch answer reaches a pipe as soon as it is written.

/// Standard output as a `TextOutputStream`.
package struct StandardOutput: TextOutputStream {
    package init() {}
    package mutating func write(_ string: String) { FileHandle.standardOutput.write(Data(string.utf8)) }
}

/// Standard error as a `TextOutputStream`.
package struct StandardError: TextOutputStream {
    package init() {}
    package mutating func write(_ string: String) { FileHandle.standardError.write(Data(string.utf8)) }
}
