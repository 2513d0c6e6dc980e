import Foundation
import GeoqAPI
import Hummingbird

/// The map page a browser gets at `/`: its own files (`/page/<file>`, SwiftPM resources read
/// once) and the mapping library it loads (`/assets/leaflet/<path>`), read from where the system
/// installed it, so that the page works with no internet connection and nothing of the library
/// lives in the repository.
public struct PageFiles: Sendable {
    /// Where Debian's libjs-leaflet puts Leaflet.
    public static let defaultAssetsDirectory = "/usr/share/javascript/leaflet"

    /// The folder `/assets/leaflet/` serves from.
    public let assetsDirectory: String
    /// The page's own files by name (`index.html`, `map.js`, `map.css`).
    let files: [String: Data]

    /// - Parameter assetsDirectory: the folder holding leaflet.js, leaflet.css and images/.
    public init(assetsDirectory: String = PageFiles.defaultAssetsDirectory) {
        self.assetsDirectory = assetsDirectory
        var files: [String: Data] = [:]
        if let folder = Bundle.module.url(forResource: "Page", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        {
            for name in names {
                files[name] = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
            }
        }
        self.files = files
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
    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in try page("index.html") }
        router.get("/page/:file") { _, context in try page(context.parameters.get("file") ?? "") }
        router.get("/assets/leaflet/**") { request, _ in
            let prefix = "/assets/leaflet/"
            let rest = String(request.uri.path.dropFirst(prefix.count))
            return try asset(rest.removingPercentEncoding ?? rest, requested: request.uri.path)
        }
    }

    /// One of the page's own files.
    func page(_ name: String) throws -> Response {
        guard let data = files[name] else { throw Problem.notFound(path: "/page/\(name)") }
        return response(data, name: name)
    }

    /// A file under the assets folder. `relativePath` is decoded already; a `..`, `.` or empty
    /// component, or an absolute path, is refused before the file system is asked, with the same
    /// 404 as a missing file (nothing outside the folder is told apart).
    func asset(_ relativePath: String, requested: String) throws -> Response {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.hasPrefix("/"), !relativePath.contains("\0"),
            components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
        else { throw Problem.notFound(path: requested) }
        let file = URL(fileURLWithPath: assetsDirectory).appendingPathComponent(relativePath).path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue,
            let data = FileManager.default.contents(atPath: file)
        else { throw Problem.notFound(path: requested) }
        return response(data, name: relativePath)
    }

    func response(_ data: Data, name: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: Self.contentType(of: name)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The media type of a file served here, by its extension.
    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json", "map": "application/json"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        case "gif": "image/gif"
        case "jpg", "jpeg": "image/jpeg"
        default: "application/octet-stream"
        }
    }
}
