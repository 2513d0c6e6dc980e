import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches a feed from an http(s) URL or a local file, whole, with one ``FetchError`` per kind of
/// failure: no connection, timeout, HTTP status, a body shorter than its Content-Length, too
/// large, an unreadable file.
///
/// Synchronous (for the command line): the calling thread waits for the download.
public struct FeedFetcher: Sendable {
    /// Seconds to wait for the server (per request, and for the whole download).
    public var timeout: Double
    /// The largest body accepted.
    public var maxBytes: Int

    public init(timeout: Double = 20, maxBytes: Int = 64 << 20) {
        self.timeout = timeout
        self.maxBytes = maxBytes
    }

    public func fetch(_ location: String) throws(FetchError) -> Data {
        let lower = location.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let url = URL(string: location), url.host != nil else { throw .badURL(location) }
            return try download(url)
        }
        let path = lower.hasPrefix("file://") ? (URL(string: location)?.path ?? location) : location
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard data.count <= maxBytes else { throw FetchError.tooLarge(url: path, limit: maxBytes) }
            return data
        } catch let error as FetchError {
            throw error
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "not readable" : "no such file"
            throw .unreadableFile(path: path, reason: reason)
        }
    }

    private func download(_ url: URL) throws(FetchError) -> Data {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("geoq (incident feeds)", forHTTPHeaderField: "User-Agent")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            box.set(data: data, response: response, error: error)
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout + 5) == .timedOut {
            task.cancel()
            throw .timedOut(url: url.absoluteString, seconds: timeout)
        }
        let (data, response, error) = box.get()
        let name = url.absoluteString
        let expected = (response as? HTTPURLResponse).flatMap {
            Int($0.value(forHTTPHeaderField: "Content-Length") ?? "")
        }
        if let error {
            let code = (error as? URLError)?.code ?? URLError.Code(rawValue: (error as NSError).code)
            // A body cut short after a 2xx with a Content-Length (curl: "transfer closed with N bytes
            // remaining") is a truncation, whatever code the platform gives it.
            if let expected, let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode),
                code != .timedOut
            {
                throw .truncated(url: name, missingBytes: max(0, expected - (data?.count ?? 0)))
            }
            // swift-corelibs-foundation (libcurl) reports a body cut short without the response:
            // "transfer closed with N bytes remaining to read".
            let message = (error as NSError).localizedDescription
            if let range = message.range(of: "transfer closed with "),
                let remaining = Int(message[range.upperBound...].prefix(while: { $0.isNumber }))
            {
                throw .truncated(url: name, missingBytes: remaining)
            }
            switch code {
            case .timedOut: throw .timedOut(url: name, seconds: timeout)
            case .networkConnectionLost:
                throw .cannotConnect(url: name, reason: "the connection was lost")
            default:
                throw .cannotConnect(url: name, reason: (error as NSError).localizedDescription)
            }
        }
        guard let http = response as? HTTPURLResponse else {
            throw .cannotConnect(url: name, reason: "no HTTP response")
        }
        guard (200..<300).contains(http.statusCode) else { throw .httpStatus(url: name, status: http.statusCode) }
        let body = data ?? Data()
        if let expected, body.count < expected { throw .truncated(url: name, missingBytes: expected - body.count) }
        guard body.count <= maxBytes else { throw .tooLarge(url: name, limit: maxBytes) }
        return body
    }
}

/// The completion handler's results, handed from URLSession's queue to the waiting thread.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    private var response: URLResponse?
    private var error: Error?

    func set(data: Data?, response: URLResponse?, error: Error?) {
        lock.lock()
        defer { lock.unlock() }
        (self.data, self.response, self.error) = (data, response, error)
    }

    func get() -> (Data?, URLResponse?, Error?) {
        lock.lock()
        defer { lock.unlock() }
        return (data, response, error)
    }
}
