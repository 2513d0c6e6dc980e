import ArgumentParser
import GeoqCommands
import GeoqServer

/// `geoq serve`'s HTTPS: the certificate and key files, both or neither (docs/SECURITY.md).
struct ServeTLSOptions: ParsableArguments {
    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp(
            "The service's certificate in PEM, then its intermediates: serve HTTPS (TLS 1.2 or later) instead of HTTP.",
            discussion: "Read again on SIGHUP, with --tls-key: new connections get the new certificate.",
            valueName: "file"))
    var certificate: String?

    @Option(
        name: .customLong("tls-key"),
        help: ArgumentHelp("The private key of --tls-cert, in PEM and not encrypted.", valueName: "file"))
    var key: String?

    func validate() throws {
        switch (certificate, key) {
        case (.some, nil): throw ValidationError("--tls-cert needs --tls-key (the certificate's private key)")
        case (nil, .some): throw ValidationError("--tls-key needs --tls-cert (the certificate it is the key of)")
        default: break
        }
    }

    /// The files, when the service is to speak TLS.
    var files: TLSFiles? {
        guard let certificate, let key else { return nil }
        return TLSFiles(certificate: certificate, key: key)
    }

    /// The option naming the file an error is about.
    static func option(for file: TLSFileError.File) -> String {
        switch file {
        case .certificate: "--tls-cert"
        case .key: "--tls-key"
        }
    }
}
