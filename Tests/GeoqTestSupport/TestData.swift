import Foundation

/// Where the tests find the shared, read-only data (never copied into the repository).
public enum TestData {
    /// The package root, found from this file's path (Tests/GeoqTestSupport/TestData.swift).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `$GEOQ_DATA_DIR`, or `../shared/data` beside the package root.
    public static let directory: URL = {
        if let env = ProcessInfo.processInfo.environment["GEOQ_DATA_DIR"], !env.isEmpty {
            return URL(fileURLWithPath: env, relativeTo: packageRoot).standardizedFileURL
        }
        return packageRoot.appendingPathComponent("../shared/data").standardizedFileURL
    }()

    /// A file under the shared data directory.
    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    /// Large benchmark data fetched by tools/fetch-benchmark-data.sh (git-ignored).
    public static func external(_ relativePath: String) -> URL {
        packageRoot.appendingPathComponent("data/external").appendingPathComponent(relativePath)
    }
}
