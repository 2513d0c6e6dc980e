import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

extension ServerAddress {
    /// Why the service could not listen at this address, in words a user can act on, or nil when
    /// `error` is not about the address (SwiftNIO's own words name a system call and an errno).
    public func listenFailure(_ error: any Error) -> String? {
        let place = "\(host):\(port)"
        if let error = error as? IOError {
            let reason =
                switch error.errnoCode {
                case EADDRINUSE: "the address is in use (another process is listening on that port)"
                case EACCES: "permission denied (ports below 1024 need privileges)"
                case EADDRNOTAVAIL: "this machine has no such address"
                default: String(cString: strerror(error.errnoCode))
                }
            return "cannot listen on \(place): \(reason)"
        }
        if error is SocketAddressError.UnknownHost {
            return "cannot listen on \(place): \(host) is neither an IP address nor a known host name"
        }
        return nil
    }
}
