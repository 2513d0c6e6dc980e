import ArgumentParser
import Foundation

/// How an error that reaches the top of the command line is reported: swift-argument-parser's
/// own sentence and usage text, or, when the command line asks for JSON, the same problem
/// object every command writes (`{"error": {"code", "message"}}`) with the same exit status.
enum CommandLineErrors {
    /// Whether `arguments` ask for machine output: `--format json` or `--format=json` (also
    /// `geojson`), wherever they stand, so that even an argument the parser refused before
    /// reaching `--format` is reported as JSON.
    static func wantsJSON(_ arguments: [String]) -> Bool {
        let machine: Set<String> = ["json", "geojson"]
        for (i, argument) in arguments.enumerated() {
            if argument == "--" { return false }
            if argument.hasPrefix("--format="), machine.contains(String(argument.dropFirst("--format=".count))) {
                return true
            }
            if argument == "--format", i + 1 < arguments.count, machine.contains(arguments[i + 1]) { return true }
        }
        return false
    }

    /// The stable code of an error the parser or a command's validation raised, by exit status.
    static func code(exitStatus: Int32) -> String {
        switch exitStatus {
        case ExitStatus.usage: "bad-arguments"
        case ExitStatus.dataError: "bad-data"
        case ExitStatus.noInput: "no-input"
        case ExitStatus.ioError: "io-error"
        default: "failed"
        }
    }

    /// The JSON problem object for `error`, or nil when the error is not a problem to report:
    /// a help or version request, or an `ExitCode` (the command has already said why).
    static func json(for error: Error, command: ParsableCommand.Type) -> String? {
        if error is ExitCode { return nil }
        let status = command.exitCode(for: error)
        guard status != .success else { return nil }
        let message = command.message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
        return AnswerRenderer.errorJSON(code: code(exitStatus: status.rawValue), message: message)
    }
}
