import Foundation
import GeoqAPI
import GeoqGzip
import HTTPTypes
import Hummingbird
import Synchronization

/// The map page a browser gets at `/`: its own files (`/page/<file>`, SwiftPM resources read
/// once) and the mapping library it loads (`/assets/leaflet/<path>`), read from where the system
/// installed it, so that the page works with no internet connection and nothing of the library
/// lives in the repository. Every file goes gzip-compressed to a client that accepts it (Leaflet's
/// 431 KB script is about a third of that), with `Vary: Accept-Encoding`.
public struct PageFiles: Sendable {
    /// Where Debian's libjs-leaflet puts Leaflet.
    public static let defaultAssetsDirectory = "/usr/share/javascript/leaflet"

    /// Where Debian installs JavaScript libraries: each once under /usr/share/nodejs, linked
    /// from /usr/share/javascript (see ``servedPath(of:)``).
    public static let packagedScriptTrees = ["/usr/share/javascript", "/usr/share/nodejs"]

    /// The folder `/assets/leaflet/` serves from.
    public let assetsDirectory: String
    /// The trees the package manager alone writes, inside which links may lead when the assets
    /// folder is in one of them.
    let packagedTrees: [String]
    /// The page's own files by name (`index.html`, `map.js`, `mvt.js`, `map.css`), as read and compressed.
    let files: [String: (plain: [UInt8], gzip: [UInt8]?)]
    /// The assets compressed so far, by path, with the size and modification time they had.
    private let compressedAssets = CompressedAssets()

    /// - Parameters:
    ///   - assetsDirectory: the folder holding leaflet.js, leaflet.css and images/.
    ///   - pageKey: a key with the `read` scope only, written into the page for every visitor
    ///     (`--page-key`), so that the page works when reads are private; nil: the page asks its
    ///     user for a key when the service answers 401.
    ///   - packagedTrees: the trees of packaged libraries (tests give folders of their own).
    public init(
        assetsDirectory: String = PageFiles.defaultAssetsDirectory, pageKey: String? = nil,
        packagedTrees: [String] = PageFiles.packagedScriptTrees
    ) {
        self.assetsDirectory = assetsDirectory
        self.packagedTrees = packagedTrees
        var files: [String: (plain: [UInt8], gzip: [UInt8]?)] = [:]
        if let folder = Bundle.module.url(forResource: "Page", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        {
            for name in names {
                guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
                    continue
                }
                var plain = [UInt8](data)
                if name == "index.html", let pageKey { plain = Self.withKey(pageKey, in: plain) }
                files[name] = (plain, Gzip.compress(plain))
            }
        }
        self.files = files
    }

    /// The page's markup with `key` in its `geoq-key` meta element (escaped as an attribute).
    static func withKey(_ key: String, in page: [UInt8]) -> [UInt8] {
        let escaped = key.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
        let text = String(decoding: page, as: UTF8.self).replacingOccurrences(
            of: #"<meta name="geoq-key" content="">"#, with: #"<meta name="geoq-key" content=""# + escaped + #"">"#)
        return Array(text.utf8)
    }

    /// The line to log at start when the assets folder is not there (the page is still served,
    /// without its map), else nil.
    public var missingAssetsMessage: String? {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: assetsDirectory, isDirectory: &isFolder), isFolder.boolValue {
            return nil
        }
        return "no Leaflet files at \(assetsDirectory): the map page at / is served without its map "
            + "(install libjs-leaflet, or point --assets at a folder holding leaflet.js and leaflet.css)"
    }

    /// Adds `/`, `/page/:file` and `/assets/leaflet/**` to `router`.
    func register(on router: Router<ServiceRequestContext>) {
        router.get("/") { request, _ in try page("index.html", gzip: Self.acceptsGzip(request)) }
        // The service worker is served from the root so that its scope is the whole origin (the
        // page at `/` and the answers it asks for), and is checked for a new version at every
        // visit (`no-cache`), so that a changed page never waits on an old worker.
        router.get("/sw.js") { request, _ in
            var response = try page("sw.js", gzip: Self.acceptsGzip(request))
            response.headers[.cacheControl] = "no-cache"
            return response
        }
        router.get("/manifest.webmanifest") { request, _ in
            try page("manifest.webmanifest", gzip: Self.acceptsGzip(request))
        }
        router.get("/page/:file") { request, context in
            try page(context.parameters.get("file") ?? "", gzip: Self.acceptsGzip(request))
        }
        router.get("/assets/leaflet/**") { request, _ in
            let prefix = "/assets/leaflet/"
            let rest = String(request.uri.path.dropFirst(prefix.count))
            return try asset(
                rest.removingPercentEncoding ?? rest, requested: request.uri.path, gzip: Self.acceptsGzip(request))
        }
    }

    static func acceptsGzip(_ request: Request) -> Bool { Gzip.isAccepted(by: request.headers[.acceptEncoding]) }

    /// One of the page's own files.
    func page(_ name: String, gzip: Bool = false) throws -> Response {
        guard let file = files[name] else { throw Problem.notFound(path: "/page/\(name)") }
        if gzip, let compressed = file.gzip { return response(compressed, name: name, gzip: true) }
        return response(file.plain, name: name)
    }

    /// A file under the assets folder. `relativePath` is decoded already; an empty component,
    /// one starting with a dot (`..`, `.`, `.git`, `.htpasswd`), or an absolute path, is refused
    /// before the file system is asked, and a file whose real path lies where it may not be
    /// served (``servedPath(of:)``) after: both with the same 404 as a missing file (nothing
    /// outside the folder is told apart).
    func asset(_ relativePath: String, requested: String, gzip: Bool = false) throws -> Response {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.hasPrefix("/"), !relativePath.contains("\0"),
            components.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }),
            let file = servedPath(of: relativePath)
        else { throw Problem.notFound(path: requested) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue,
            let attributes = try? FileManager.default.attributesOfItem(atPath: file)
        else { throw Problem.notFound(path: requested) }
        let version = CompressedAssets.Version(
            size: (attributes[.size] as? NSNumber)?.intValue ?? -1,
            modified: attributes[.modificationDate] as? Date ?? .distantPast)
        // A compressed copy of this version of the file needs no read of the file itself.
        if gzip, let kept = compressedAssets.kept(file, version: version) {
            return response(kept, name: relativePath, gzip: true)
        }
        guard let data = FileManager.default.contents(atPath: file) else { throw Problem.notFound(path: requested) }
        let plain = [UInt8](data)
        if gzip, let compressed = compressedAssets.compress(file, version: version, plain: plain) {
            return response(compressed, name: relativePath, gzip: true)
        }
        return response(plain, name: relativePath)
    }

    /// The real path (every link resolved) of the asset at `relativePath`, if it may be served:
    /// one inside the assets folder's own real path, with no component there starting with a dot.
    ///
    /// A link may lead elsewhere only when the assets folder is itself in a packaged tree
    /// (``packagedScriptTrees``), and then only into one of those trees. Debian's JavaScript
    /// policy lets a package keep a library under /usr/share/nodejs and link its files from
    /// /usr/share/javascript (libjs-leaflet 1.7 ships plain files; a release that links them
    /// must still be served); the package manager alone writes both trees, so such a link is
    /// the package's own layout, not a way out.
    /// A folder an operator gives with `--assets` elsewhere may hold anything (a link to `/etc`
    /// left by mistake), so its links must stay inside it. The folder's own path is resolved
    /// first, so that a folder that is itself a link (`/opt/leaflet` to a release's folder)
    /// serves its files.
    func servedPath(of relativePath: String) -> String? {
        guard let root = Self.realPath(assetsDirectory), let file = Self.realPath(root + "/" + relativePath) else {
            return nil
        }
        let trees = packagedTrees.compactMap(Self.realPath)
        let allowed = trees.contains { Self.path(root, isInside: $0) || root == $0 } ? [root] + trees : [root]
        return allowed.contains { Self.path(file, isInside: $0) } ? file : nil
    }

    /// Whether `path` is below `folder` (both real paths), by no component starting with a dot.
    static func path(_ path: String, isInside folder: String) -> Bool {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        guard path.hasPrefix(prefix) else { return false }
        return path.dropFirst(prefix.count).split(separator: "/").allSatisfy { !$0.hasPrefix(".") }
    }

    /// `path` with every link resolved (realpath(3)), or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    func response(_ bytes: [UInt8], name: String, gzip: Bool = false) -> Response {
        var headers: HTTPFields = [.contentType: Self.contentType(of: name), .vary: "Accept-Encoding"]
        if gzip { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The media type of a file served here, by its extension.
    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json", "map": "application/json"
        case "webmanifest": "application/manifest+json"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        case "gif": "image/gif"
        case "jpg", "jpeg": "image/jpeg"
        default: "application/octet-stream"
        }
    }
}

/// Compressed copies of asset files, made once per version of a file (its size and modification
/// time), so that Leaflet is compressed once rather than on every page load.
private final class CompressedAssets: Sendable {
    struct Version: Hashable, Sendable {
        var size: Int
        var modified: Date
    }

    private let cache = Mutex<[String: (version: Version, gzip: [UInt8])]>([:])

    /// The compressed copy of the file at `path` as it is at `version`, if one was made.
    func kept(_ path: String, version: Version) -> [UInt8]? {
        guard let kept = cache.withLock({ $0[path] }), kept.version == version else { return nil }
        return kept.gzip
    }

    /// `plain` (the file at `path`, as it is at `version`) compressed and kept; nil if zlib refuses.
    func compress(_ path: String, version: Version, plain: [UInt8]) -> [UInt8]? {
        guard let gzip = Gzip.compress(plain) else { return nil }
        cache.withLock { $0[path] = (version, gzip) }
        return gzip
    }
}
