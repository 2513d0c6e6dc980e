import ArgumentParser
import Foundation
import GeoqCommands
import GeoqPostGIS

/// `geoq-server`: every command of `geoq`, plus those that need the network stack (the HTTP
/// service, webhooks, API keys, Web Push), with PostgreSQL/PostGIS as the shared store. `geoq` hands it
/// these command lines; it answers as `geoq`.
@main
struct GeoqServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: GeoqRoot.commandName, abstract: GeoqRoot.abstract, discussion: GeoqRoot.discussion,
        subcommands: GeoqRoot.storeCommands + [
            ServeCommand.self, HooksCommand.self, KeysCommand.self, PushCommand.self,
        ])

    static func main() async {
        SharedStores.backend = PostGISBackend.self
        await GeoqRoot.run(self, arguments: Array(CommandLine.arguments.dropFirst()))
    }
}
