import ArgumentParser
import Foundation
import GeoqAccess
import GeoqCommands
import GeoqLayers
import GeoqPush
import GeoqStore

/// `geoq push`: the service's Web Push key, and news sent to the phones that asked for a topic.
struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: GeoqRoot.ServerAbstract.push,
        discussion: """
            Browsers subscribe to push messages with the service's VAPID public key (`GET \
            /v1/push/key`); the store keeps its private key, made once by `geoq push keys`. \
            `geoq serve` sends what falls due: a ticket's reminders (`POST /v1/park`) and news \
            (`geoq push send`), encrypted for each browser (RFC 8291) and signed with the key \
            (RFC 8292), through the same destination rules as webhooks (`--hook-allow`); on a \
            shared store every replica sends, each message claimed by one of them.

            Examples:
              geoq push keys --contact mailto:ops@example.org
              geoq push send --topic news --tenant parking-app "Calle Estafeta cerrada hasta las 14:00"
              geoq push send --topic news --title "Fallas" --url "/?lat=39.4699&lon=-0.3763" "Mascletà a las 14:00"

            Exit status: 0 done, 64 bad arguments (a bad topic or contact, no key yet for send), \
            65 the store cannot be read, 74 the store could not be written, 69 and 77 a shared \
            store's database cannot be reached or refused the credentials.
            """,
        subcommands: [PushKeys.self, PushSend.self])

    /// Where the store keeps the VAPID private key and the operator's contact.
    static let keySetting = "push.vapid-key"
    static let contactSetting = "push.contact"
}

/// `geoq push keys [--contact ADDRESS] [--new]`.
struct PushKeys: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make the service's VAPID key (once), and print its public key.")

    @Option(name: .long, help: "Who runs the service, as push services ask: a mailto: or https: address.")
    var contact: String?

    @Flag(name: .long, help: "Replace the key: every browser must subscribe again.")
    var new = false

    @OptionGroup var options: StoreCommandOptions

    func run() throws {
        if let contact, !(contact.hasPrefix("mailto:") || contact.hasPrefix("https://")) || contact.count < 8 {
            options.fail("--contact: a mailto: or https: address, got \"\(contact)\"", code: "bad-arguments")
            throw ExitCode(ExitStatus.usage)
        }
        let (key, made) = try options.withStore { store -> (VAPIDKey, Bool) in
            let tables = try store.pushTables()
            if let contact { try tables.replaceSetting(PushCommand.contactSetting, with: Data(contact.utf8)) }
            if !new, let stored = try tables.storedSetting(PushCommand.keySetting) {
                return (try VAPIDKey(raw: stored), false)
            }
            let key = VAPIDKey()
            try tables.replaceSetting(PushCommand.keySetting, with: key.raw)
            return (key, true)
        }
        options.write(text: "\(key.publicKey)\n", json: ["publicKey": key.publicKey, "made": made])
        if options.format == .text {
            let said =
                !made
                ? "the store's VAPID key (unchanged)"
                : new
                    ? "a new VAPID key; a running service uses it after a restart, and browsers must subscribe again"
                    : "a new VAPID key; a running service takes it at its next push request"
            FileHandle.standardError.write(Data("geoq push: \(said). Its public key is above.\n".utf8))
        }
    }
}

/// `geoq push send --topic T [--tenant T] [--title T] [--url U] TEXT`.
struct PushSend: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a notification to every phone subscribed to a topic.")

    @Argument(help: "The notification's text.")
    var text: String

    @Option(name: .long, help: "The topic its subscribers asked for (letters, digits, - or _).")
    var topic: String

    @Option(name: .long, help: "The tenant whose subscribers get it.")
    var tenant: String = "default"

    @Option(name: .long, help: "The notification's title.")
    var title: String = "geoq"

    @Option(name: .long, help: "The page a click opens (a path of the service).")
    var url: String = "/"

    @OptionGroup var options: StoreCommandOptions

    func run() throws {
        guard PushSubscriptionRequest.isTopic(topic) else {
            options.fail("--topic: 1 to 32 letters, digits, - or _, got \"\(topic)\"", code: "bad-arguments")
            throw ExitCode(ExitStatus.usage)
        }
        guard url.hasPrefix("/"), !url.hasPrefix("//") else {
            options.fail("--url: a path of the service, starting with /, got \"\(url)\"", code: "bad-arguments")
            throw ExitCode(ExitStatus.usage)
        }
        let message = Base64URL.encode(SecureRandom.bytes(12))
        let payload = PushPayload(title: title, body: text, url: url, tag: "\(topic)-\(message)")
        guard payload.json.count <= WebPushEncryption.maxPayload else {
            options.fail(
                PushError.payloadTooLarge(payload.json.count, limit: WebPushEncryption.maxPayload).description,
                code: "bad-arguments")
            throw ExitCode(ExitStatus.usage)
        }
        let result = try options.withStore { store -> (subscribers: Int, put: Int)? in
            let tables = try store.pushTables()
            guard try tables.storedSetting(PushCommand.keySetting) != nil else { return nil }
            let subscribers = try tables.pushSubscriptions(tenant: tenant, topic: topic)
            let now = Date()
            let put = try tables.enqueuePush(
                subscribers.map {
                    PushMessageRow(
                        subscription: $0.id, idempotencyKey: "news-\(message)-\($0.id)", body: payload.json,
                        topic: nil, due: now)
                })
            return (subscribers.count, put)
        }
        guard let result else {
            options.fail("the store has no VAPID key yet: run `geoq push keys` first", code: "no-push-key")
            throw ExitCode(ExitStatus.usage)
        }
        options.write(
            text: "Queued for \(result.put) subscriber(s) of \(topic) in \(tenant); a running service sends it.\n",
            json: ["topic": topic, "tenant": tenant, "queued": result.put])
    }
}
