import ArgumentParser
import GeoqLayers

/// geoq's exit statuses, in one place (documented in the README).
///
/// 64–70 follow BSD sysexits.h, as swift-argument-parser already does for usage errors.
package enum ExitStatus {
    /// The point is inside a feature; or a batch in which every line was answered.
    package static let success: Int32 = 0
    /// An ordinary answer: the point is outside every feature of the layer.
    package static let outside: Int32 = 3
    /// A batch finished, but some lines were not points (each got an error line).
    package static let batchHadBadLines: Int32 = 4
    /// The tariff refuses the request (beyond the max stay, an amount the machines cannot take,
    /// below the minimum ticket, a residents-only zone, a reminder in the past); the message
    /// offers what is possible.
    package static let refused: Int32 = 5
    /// Bad arguments: not numbers, out of range, unknown layer or option, a layer of the wrong
    /// kind for the command (points for which-sector, polygons for nearest).
    package static let usage: Int32 = 64
    /// A data file or the catalog is malformed, or holds an invalid polygon.
    package static let dataError: Int32 = 65
    /// A data file or the catalog is missing or unreadable.
    package static let noInput: Int32 = 66
    /// A feed could not be downloaded (no connection, timeout, HTTP error, truncated body); the
    /// PostgreSQL store cannot be reached (or not with the TLS its address asks for), or its
    /// database lacks PostGIS.
    package static let unavailable: Int32 = 69
    /// A bug in geoq.
    package static let software: Int32 = 70
    /// The store could not be written (it is left as it was), or the database refused a
    /// statement.
    package static let ioError: Int32 = 74
    /// The database refused the user or the password.
    package static let noPermission: Int32 = 77

    /// The one mapping from layer errors to exit statuses.
    package static func of(_ error: LayerError) -> Int32 {
        switch error {
        // The layer exists but is of the wrong kind for the question: the request is wrong.
        case .unknownLayer, .notAreal, .notPoints: usage
        case .sourceMissing, .sourceNotFetched, .fileMissing, .catalogUnreadable: noInput
        case .catalogMalformed, .sourceMalformed, .crsMissing, .reprojectionFailed,
            .invalidPolygon, .emptyLayer, .storeUnreadable:
            dataError
        case .storeWriteFailed: ioError
        case .store(let error): of(error)
        }
    }

    /// A shared store's failure: what the operator must fix decides the status.
    package static func of(_ error: SharedStoreError) -> Int32 {
        switch error.kind {
        case .badAddress: usage
        case .unreachable, .connectionLost, .noSpatialExtension, .tlsRefused: unavailable
        case .credentialsRefused: noPermission
        case .noDatabase: noInput
        case .queryFailed: ioError
        }
    }

    /// Prints a layer error on standard error: a sentence, or a JSON problem object when the
    /// command's output is JSON. The one place every command reports layer errors.
    package static func report(_ error: LayerError, format: OutputFormat) {
        var stderr = StandardError()
        stderr.write(
            format == .text
                ? "geoq: error: \(error.description)\n"
                : AnswerRenderer.errorJSON(code: error.code, message: error.description) + "\n")
    }

    /// Runs `body`; a layer error is reported and ends the command with its exit status.
    package static func reporting<T>(format: OutputFormat, _ body: () throws(LayerError) -> T) throws -> T {
        do { return try body() } catch {
            report(error, format: format)
            throw ExitCode(of(error))
        }
    }
}
