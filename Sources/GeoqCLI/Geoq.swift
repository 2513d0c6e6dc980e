import ArgumentParser
import Foundation
import GeoqCommands

/// The `geoq` command line: one subcommand per question, answered from a GeoPackage. What needs
/// the network stack goes to `geoq-server` (``ServerForwarding``) before anything is parsed.
@main
struct Geoq: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: GeoqRoot.commandName, abstract: GeoqRoot.abstract, discussion: GeoqRoot.discussion,
        subcommands: GeoqRoot.storeCommands + [
            ServeInServer.self, HooksInServer.self, KeysInServer.self, PushInServer.self,
        ])

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // tools/run asks whether a command line needs geoq-server, to build it only then.
        if arguments.first == "--needs-server" {
            let asked = Array(arguments.dropFirst())
            let environment = ProcessInfo.processInfo.environment
            Foundation.exit(ServerForwarding.isNeeded(for: asked, environment: environment) ? 0 : 1)
        }
        if ServerForwarding.isNeeded(for: arguments, environment: ProcessInfo.processInfo.environment) {
            Foundation.exit(ServerForwarding.replaceProcess(arguments: arguments))
        }
        await GeoqRoot.run(self, arguments: arguments)
    }
}

// `geoq --help` lists the commands geoq-server runs; their command lines never reach the parser
// (``Geoq/main()`` hands them over first), so these only name them.

struct ServeInServer: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: GeoqRoot.ServerAbstract.serve)
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}

struct HooksInServer: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hooks", abstract: GeoqRoot.ServerAbstract.hooks)
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}

struct KeysInServer: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "keys", abstract: GeoqRoot.ServerAbstract.keys)
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}

struct PushInServer: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "push", abstract: GeoqRoot.ServerAbstract.push)
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}
