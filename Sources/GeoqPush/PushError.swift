/// Why a push message cannot be made or a subscription not be taken.
public enum PushError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A key (the browser's `p256dh` or `auth`, or the stored VAPID key) is not what it must be.
    case badKey(String)
    /// The payload is larger than a push service must carry once encrypted.
    case payloadTooLarge(Int, limit: Int)

    public var description: String {
        switch self {
        case .badKey(let why): why
        case .payloadTooLarge(let size, let limit):
            "the message is \(size) bytes; a push message holds at most \(limit) bytes before encryption"
        }
    }
}
