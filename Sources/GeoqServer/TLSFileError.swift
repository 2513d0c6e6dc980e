/// Why the service's certificate or key file cannot be used: each case names the file and what
/// is wrong with it, so that an operator can fix it without a TLS library's error codes.
public enum TLSFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which of the two files is at fault.
    public enum File: Sendable, Hashable {
        case certificate
        case key
    }

    /// The file cannot be read (missing, a folder, no permission).
    case unreadable(File, path: String, reason: String)
    /// The file holds no PEM block of the kind expected (`-----BEGIN CERTIFICATE-----`, or a
    /// private key's), or one that does not decode.
    case notPEM(File, path: String, reason: String)
    /// The key is encrypted with a passphrase, which the service has no way to ask for.
    case encryptedKey(path: String)
    /// The key is not the private key of the certificate's public key.
    case keyMismatch(certificate: String, key: String)
    /// Both files read, and the TLS library refused them together for another reason.
    case refused(certificate: String, key: String, reason: String)

    /// The file at fault (the key for a mismatch: the certificate is usually the one renewed,
    /// and the key is what must follow it).
    public var file: File {
        switch self {
        case .unreadable(let file, _, _), .notPEM(let file, _, _): file
        case .encryptedKey, .keyMismatch, .refused: .key
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let file, let path, let reason): "the \(file.noun) \(path) cannot be read: \(reason)"
        case .notPEM(let file, let path, let reason): "the \(file.noun) \(path) is not PEM: \(reason)"
        case .encryptedKey(let path):
            "the private key \(path) is encrypted; give the service an unencrypted key "
                + "(openssl pkey -in \(path) -out KEY.pem), readable by its user only"
        case .keyMismatch(let certificate, let key):
            "the private key \(key) does not match the certificate \(certificate) (it is the key of another certificate)"
        case .refused(let certificate, let key, let reason):
            "the certificate \(certificate) and key \(key) cannot be used together: \(reason)"
        }
    }
}

extension TLSFileError.File {
    fileprivate var noun: String {
        switch self {
        case .certificate: "certificate file"
        case .key: "private key file"
        }
    }
}
