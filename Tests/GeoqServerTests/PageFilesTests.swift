import Foundation
import GeoqAPI
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GeoqServer

/// The map page at `/`, its own files at `/page/`, and Leaflet at `/assets/leaflet/` from a
/// folder made here (so that the bytes served can be compared with the bytes written).
@Suite struct PageFilesTests {
    /// A Leaflet folder with a script, a style sheet and an image, in a fresh temporary folder.
    static func assetsFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-assets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Data("/* leaflet */ window.L = {};".utf8).write(to: folder.appendingPathComponent("leaflet.js"))
        try Data(".leaflet-container{}".utf8).write(to: folder.appendingPathComponent("leaflet.css"))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: folder.appendingPathComponent("images/layers.png"))
        return folder
    }

    func withClient(
        assets: String, _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let router = Routes.router(
            state: ServiceState(try RoutesTests.data()), page: PageFiles(assetsDirectory: assets))
        try await Application(router: router).test(.router) { client in try await body(client) }
    }

    /// The page's files as they are in the source tree, read independently of the bundle.
    static func source(_ name: String) throws -> Data {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/GeoqServer/Page")
        return try Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// Asked with `Accept-Encoding: gzip`, the page's files and Leaflet come compressed, and
    /// `gzip -dc` (a second implementation) turns them back into the bytes on disk.
    @Test func gzipWhenAsked() async throws {
        let folder = try Self.assetsFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = [
            "/": try Self.source("index.html"), "/page/map.js": try Self.source("map.js"),
            "/page/mvt.js": try Self.source("mvt.js"),
            "/assets/leaflet/leaflet.js": try Data(contentsOf: folder.appendingPathComponent("leaflet.js")),
        ]
        try await withClient(assets: folder.path) { client in
            for (uri, plain) in expected {
                // Twice: the second answer of an asset comes from the compressed copy kept.
                for _ in 0..<2 {
                    let zipped = try await client.execute(
                        uri: uri, method: .get, headers: [.acceptEncoding: "gzip, br"]
                    ) { r in
                        #expect(r.status == .ok && r.headers[.contentEncoding] == "gzip", "\(uri)")
                        #expect(r.headers[.vary] == "Accept-Encoding")
                        return Data(buffer: r.body)
                    }
                    #expect(try LayerFeaturesRouteTests.gunzip(zipped) == plain, "\(uri)")
                }
                try await client.execute(uri: uri, method: .get) { r in
                    #expect(r.headers[.contentEncoding] == nil && Data(buffer: r.body) == plain, "\(uri)")
                }
            }
        }
    }

    @Test func pageAndItsFiles() async throws {
        let folder = try Self.assetsFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = try Self.source("index.html")
        let script = try Self.source("map.js")
        let style = try Self.source("map.css")
        try await withClient(assets: folder.path) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(Data(buffer: response.body) == html)
            }
            try await client.execute(uri: "/page/map.js", method: .get) { response in
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(Data(buffer: response.body) == script)
            }
            try await client.execute(uri: "/page/map.css", method: .get) { response in
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
                #expect(Data(buffer: response.body) == style)
            }
            try await client.execute(uri: "/page/nothing.js", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
        // Every file the page names is one it is served with, and none is outside its origin.
        let text = String(decoding: html, as: UTF8.self)
        for reference in [
            "/assets/leaflet/leaflet.js", "/assets/leaflet/leaflet.css", "/page/mvt.js", "/page/map.js",
            "/page/map.css", "/page/position.js", "/page/ar.js", "/page/pwa.js", "/manifest.webmanifest",
        ] {
            #expect(text.contains("\"\(reference)\""))
        }
        #expect(!text.contains("http://") && !text.contains("https://"))
    }

    /// The service worker is served from the root (its scope is the whole origin), checked for a
    /// new version at every visit, and the manifest as a web app manifest; both to anyone, even
    /// when reads are private, as the page's other files are.
    @Test func theServiceWorkerAndManifestFromTheRoot() async throws {
        let folder = try Self.assetsFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let worker = try Self.source("sw.js")
        let manifest = try Self.source("manifest.webmanifest")
        let router = Routes.router(
            state: ServiceState(try RoutesTests.data()), page: PageFiles(assetsDirectory: folder.path),
            tracking: TrackingFixture().tracking, access: AccessRules(privateReads: true))
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/sw.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-cache")
                #expect(Data(buffer: response.body) == worker)
            }
            try await client.execute(uri: "/manifest.webmanifest", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/manifest+json")
                let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(object?["start_url"] as? String == "/")
                #expect(Data(buffer: response.body) == manifest)
            }
            // The reads are private: an answer needs the key, the page's files do not.
            try await client.execute(uri: "/v1/layers", method: .get) { #expect($0.status == .unauthorized) }
        }
        let html = String(decoding: try Self.source("index.html"), as: UTF8.self)
        #expect(html.contains(#"href="/manifest.webmanifest""#))
    }

    /// With `--page-key`, the page carries the key in its `geoq-key` meta element (and nowhere
    /// else changes); without, the element is empty.
    @Test func thePageKeyIsWrittenIntoThePageOnly() async throws {
        let html = String(decoding: try Self.source("index.html"), as: UTF8.self)
        #expect(html.contains(#"<meta name="geoq-key" content="">"#))
        let key = "gqk_0123456789ab_" + String(repeating: "x", count: 43)
        let router = Routes.router(
            state: ServiceState(try RoutesTests.data()), page: PageFiles(pageKey: key))
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                let served = String(buffer: response.body)
                #expect(
                    served
                        == html.replacingOccurrences(
                            of: #"content="">"#, with: #"content="\#(key)">"#))
            }
            try await client.execute(uri: "/page/map.js", method: .get) { response in
                #expect(!String(buffer: response.body).contains(key))
            }
        }
        // Markup in a key could not leave the attribute.
        let hostile = PageFiles.withKey(#"k"><script>x</script>"#, in: Array(html.utf8))
        #expect(String(decoding: hostile, as: UTF8.self).contains(#"content="k&quot;>&lt;script>x&lt;/script>">"#))
    }

    @Test func leafletFromTheAssetsFolder() async throws {
        let folder = try Self.assetsFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(PageFiles(assetsDirectory: folder.path).missingAssetsMessage == nil)
        try await withClient(assets: folder.path) { client in
            for (path, type) in [
                ("leaflet.js", "text/javascript; charset=utf-8"), ("leaflet.css", "text/css; charset=utf-8"),
                ("images/layers.png", "image/png"),
            ] {
                try await client.execute(uri: "/assets/leaflet/\(path)", method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType] == type, "\(path)")
                    let written = try Data(contentsOf: folder.appendingPathComponent(path))
                    #expect(Data(buffer: response.body) == written, "\(path)")
                }
            }
            try await client.execute(uri: "/assets/leaflet/leaflet.min.js", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
    }

    /// A path that would leave the folder is refused even when the file it names exists.
    @Test func traversalRefused() async throws {
        let folder = try Self.assetsFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = folder.deletingLastPathComponent().appendingPathComponent("geoq-secret-\(UUID().uuidString).txt")
        try Data("secret".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let name = secret.lastPathComponent
        try await withClient(assets: folder.path) { client in
            for path in [
                "/assets/leaflet/../\(name)", "/assets/leaflet/%2e%2e/\(name)", "/assets/leaflet/images/../../\(name)",
                "/assets/leaflet/%2F\(secret.path.dropFirst())", "/assets/leaflet//etc/passwd",
                "/assets/leaflet/./leaflet.js",
            ] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .notFound, "\(path)")
                    #expect(Data(buffer: response.body) != Data("secret".utf8), "\(path)")
                }
            }
        }
    }

    /// A dotfile, or a file in a dot folder, is not served, even when it is there.
    @Test func dotfilesRefused() async throws {
        let folder = try Self.assetsFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        try manager.createDirectory(at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("[core]".utf8).write(to: folder.appendingPathComponent(".git/config"))
        try Data("user:secret".utf8).write(to: folder.appendingPathComponent(".htpasswd"))
        try Data("x".utf8).write(to: folder.appendingPathComponent("images/.hidden.png"))
        // A link named plainly that leads to a dotfile in the folder.
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("passwords.txt").path, withDestinationPath: ".htpasswd")
        try await withClient(assets: folder.path) { client in
            for path in [".git/config", ".htpasswd", "images/.hidden.png", "%2Ehtpasswd", "passwords.txt"] {
                try await client.execute(uri: "/assets/leaflet/\(path)", method: .get) { response in
                    #expect(response.status == .notFound, "\(path)")
                    #expect(response.headers[.contentType] == "application/problem+json", "\(path)")
                }
            }
            try await client.execute(uri: "/assets/leaflet/leaflet.js", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    /// A link whose real path leaves the folder is refused as a missing file; one that stays
    /// inside it, and a folder that is itself a link, are served.
    @Test func linksLeavingTheFolderRefused() async throws {
        let folder = try Self.assetsFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        let outside = folder.deletingLastPathComponent().appendingPathComponent("geoq-outside-\(UUID().uuidString)")
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: outside) }
        try Data("secret".utf8).write(to: outside.appendingPathComponent("secret.js"))
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("secret.js").path,
            withDestinationPath: outside.appendingPathComponent("secret.js").path)
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("outside").path, withDestinationPath: outside.path)
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("images/up.js").path,
            withDestinationPath: "../../\(outside.lastPathComponent)/secret.js")
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("leaflet-src.js").path, withDestinationPath: "leaflet.js")
        let linkedFolder = folder.deletingLastPathComponent().appendingPathComponent("geoq-link-\(UUID().uuidString)")
        try manager.createSymbolicLink(atPath: linkedFolder.path, withDestinationPath: folder.path)
        defer { try? manager.removeItem(at: linkedFolder) }
        let script = try Data(contentsOf: folder.appendingPathComponent("leaflet.js"))
        for assets in [folder.path, linkedFolder.path] {
            try await withClient(assets: assets) { client in
                for path in ["secret.js", "outside/secret.js", "images/up.js"] {
                    try await client.execute(uri: "/assets/leaflet/\(path)", method: .get) { response in
                        #expect(response.status == .notFound, "\(path) from \(assets)")
                        #expect(Data(buffer: response.body) != Data("secret".utf8), "\(path) from \(assets)")
                    }
                }
                for path in ["leaflet.js", "leaflet-src.js"] {
                    try await client.execute(uri: "/assets/leaflet/\(path)", method: .get) { response in
                        #expect(response.status == .ok, "\(path) from \(assets)")
                        #expect(Data(buffer: response.body) == script, "\(path) from \(assets)")
                    }
                }
            }
        }
    }

    /// Debian's layout: the assets folder in the packaged JavaScript tree, its files links into
    /// the Node.js tree. Those links are followed, only into those trees; the same links from a
    /// folder elsewhere are not.
    @Test func linksOfAPackagedLibraryFollowed() throws {
        let manager = FileManager.default
        let share = manager.temporaryDirectory.appendingPathComponent("geoq-share-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: share) }
        let javascript = share.appendingPathComponent("javascript")
        let nodejs = share.appendingPathComponent("nodejs")
        let dist = nodejs.appendingPathComponent("leaflet/dist")
        let assets = javascript.appendingPathComponent("leaflet")
        try manager.createDirectory(at: dist.appendingPathComponent("images"), withIntermediateDirectories: true)
        try manager.createDirectory(at: assets, withIntermediateDirectories: true)
        try Data("window.L = {};".utf8).write(to: dist.appendingPathComponent("leaflet.js"))
        try Data([0x89, 0x50]).write(to: dist.appendingPathComponent("images/layers.png"))
        try Data("{}".utf8).write(to: dist.appendingPathComponent(".eslintrc"))
        try Data("secret".utf8).write(to: share.appendingPathComponent("secret.js"))
        try manager.createSymbolicLink(
            atPath: assets.appendingPathComponent("leaflet.js").path,
            withDestinationPath: "../../nodejs/leaflet/dist/leaflet.js")
        try manager.createSymbolicLink(
            atPath: assets.appendingPathComponent("images").path,
            withDestinationPath: "../../nodejs/leaflet/dist/images")
        try manager.createSymbolicLink(
            atPath: assets.appendingPathComponent("lint.json").path,
            withDestinationPath: "../../nodejs/leaflet/dist/.eslintrc")
        try manager.createSymbolicLink(
            atPath: assets.appendingPathComponent("secret.js").path, withDestinationPath: "../../secret.js")
        let packaged = PageFiles(assetsDirectory: assets.path, packagedTrees: [javascript.path, nodejs.path])
        let real = dist.resolvingSymlinksInPath()
        #expect(packaged.servedPath(of: "leaflet.js") == real.appendingPathComponent("leaflet.js").path)
        #expect(packaged.servedPath(of: "images/layers.png") == real.appendingPathComponent("images/layers.png").path)
        #expect(packaged.servedPath(of: "lint.json") == nil)
        #expect(packaged.servedPath(of: "secret.js") == nil)
        #expect(try packaged.asset("leaflet.js", requested: "/assets/leaflet/leaflet.js").status == .ok)
        // The same folder, not known as a packaged tree.
        let elsewhere = PageFiles(assetsDirectory: assets.path, packagedTrees: [])
        for path in ["leaflet.js", "images/layers.png", "lint.json", "secret.js"] {
            #expect(elsewhere.servedPath(of: path) == nil, "\(path)")
            #expect(throws: Problem.self) { try elsewhere.asset(path, requested: "/assets/leaflet/\(path)") }
        }
    }

    /// `--assets` naming a folder that is not there: a message for the start log, and the page
    /// still served (without its map).
    @Test func missingAssetsFolder() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent(
            "geoq-no-assets-\(UUID().uuidString)")
        let message = try #require(PageFiles(assetsDirectory: missing.path).missingAssetsMessage)
        #expect(message.contains(missing.path))
        try await withClient(assets: missing.path) { client in
            try await client.execute(uri: "/", method: .get) { response in #expect(response.status == .ok) }
            try await client.execute(uri: "/assets/leaflet/leaflet.js", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}
