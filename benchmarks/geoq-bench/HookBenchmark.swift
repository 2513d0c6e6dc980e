import Foundation
import GeoqHooks
import GeoqLayers
import GeoqStore
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Webhook delivery as the number of hooks grows: the same events (each of one tenant, each
/// tenant with one hook) delivered to 10 hooks, then to 1,000, by one `HookDelivery` over a
/// GeoPackage, to a receiver in this process that answers 204 (a SwiftNIO server on a thread of
/// its own). Deliveries a second, and the process's CPU per delivery (the receiver's included:
/// the same in both rows). The peer is the 10-hook row: a scheduler whose work grew with the
/// square of the hooks would fall behind it.
enum HookBenchmark {
    static func run(options: BenchmarkOptions, progress: Progress) throws {
        let events = options.smoke ? 200 : 10_000
        let receiver = try Receiver()
        defer { receiver.stop() }
        print("| hooks | events | deliveries | seconds | deliveries/s | CPU ms per delivery |")
        print("|---:|---:|---:|---:|---:|---:|")
        var rates: [Double] = []
        for hooks in [10, options.smoke ? 100 : 1_000] {
            progress.note("hooks: \(events) events to \(hooks) hooks")
            let (seconds, cpu) = try measure(hooks: hooks, events: events, port: receiver.port)
            rates.append(Double(events) / seconds)
            print(
                "| \(hooks) | \(events) | \(events) | \(String(format: "%.2f", seconds)) | "
                    + "\(String(format: "%.0f", Double(events) / seconds)) | "
                    + "\(String(format: "%.3f", cpu * 1000 / Double(events))) |")
        }
        print("| 1,000 hooks / 10 hooks | | | | \(String(format: "%.2f", rates[1] / rates[0])) | |")
        print()
    }

    /// Seconds until every event is delivered, and the process's CPU seconds meanwhile.
    static func measure(hooks: Int, events: Int, port: Int) throws -> (Double, Double) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-bench-hooks-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = TrackingStore(storeFile: folder.appendingPathComponent("geoq.gpkg"))
        for n in 0..<hooks { _ = try store.addHook(tenant: "t\(n)", url: "http://127.0.0.1:\(port)/hook/\(n)") }
        let batch = (0..<events).map { n in
            StoredEvent(
                tenant: "t\(n % hooks)", device: "car-\(n)", layer: "pamplona-sectors", kind: "parked",
                body: Data(#"{"device":"car-\#(n)","event":"parked"}"#.utf8))
        }
        try store.commit(tracks: [], events: batch)
        let options = DeliveryOptions(
            destinations: DestinationRules(allowHTTP: true, allowed: [AddressRange("127.0.0.0/8")!]),
            sweepInterval: .milliseconds(200))
        let delivery = HookDelivery(store: store, options: options)
        let cpuBefore = processCPUSeconds()
        let start = ContinuousClock.now
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            await delivery.run()
            done.signal()
        }
        while delivery.metrics.count(.delivered) < events { Thread.sleep(forTimeInterval: 0.01) }
        let elapsed = ContinuousClock.now - start
        let cpu = processCPUSeconds() - cpuBefore
        task.cancel()
        done.wait()
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, cpu)
    }

    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// An HTTP server on 127.0.0.1 that answers every request 204 and closes as asked.
    final class Receiver {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let channel: any Channel
        var port: Int { channel.localAddress?.port ?? 0 }

        init() throws {
            channel = try ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 1024)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(NoContent())
                    }
                }
                .bind(host: "127.0.0.1", port: 0).wait()
        }

        func stop() {
            try? channel.close().wait()
            try? group.syncShutdownGracefully()
        }
    }

    final class NoContent: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            var head = HTTPResponseHead(version: .http1_1, status: .noContent)
            head.headers.add(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
        }
    }
}
