import ArgumentParser
import Foundation
import GeoqLayers
import GeoqStore

/// `geoq devices erase ID --tenant T`: the right to erasure, as the store's operator.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Device data in the store: erase a device.",
        subcommands: [DevicesErase.self])
}

struct DevicesErase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase",
        abstract: "Erase a device: its tracks, events and their deliveries, in one transaction.",
        discussion: """
            The same as DELETE /v1/devices/{id} with an admin key. Erased rows are overwritten \
            in a GeoPackage (secure_delete) and vacuumed in PostgreSQL. A running service on a \
            GeoPackage may still hold the device's track in memory: erase through the service \
            (DELETE /v1/devices/{id}) while it runs.

            Examples:
              geoq devices erase car-1 --tenant parking-app
              geoq devices erase car-1 --tenant parking-app --format json

            Exit status: 0 done (also when nothing was stored of the device), 64 bad arguments, \
            65 the store cannot be read, 69 the database cannot be reached, 74 the store could \
            not be written, 77 the database refused the credentials.
            """)

    @Argument(help: "The device's id.")
    var id: String

    @Option(name: .long, help: "The tenant the device belongs to.")
    var tenant: String

    @OptionGroup var options: StoreCommandOptions

    func run() throws {
        let erased =
            try options.storeExists()
            ? try options.withStore { try $0.erase(tenant: tenant, device: id) }
            : Erasure(tracks: 0, events: 0, deliveries: 0)
        options.write(
            text: "Erased device \(id) of \(tenant): \(erased.tracks) tracks, \(erased.events) events, "
                + "\(erased.deliveries) deliveries.\n",
            json: [
                "device": id, "tenant": tenant, "tracks": erased.tracks, "events": erased.events,
                "deliveries": erased.deliveries,
            ])
    }
}
