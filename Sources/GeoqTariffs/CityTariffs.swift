import Foundation
import GeoqSchedule

/// A city's regulated parking as data (data/tariffs/<city>.json): time zone, holiday calendar
/// layers, regulated hours, zones with their rate lines, residents' sectors. A second city is
/// added by writing a second file.
public struct CityTariffs: Hashable, Sendable {
    public var city: String
    public var title: LocalizedText
    public var source: String
    public var clock: CityClock
    public var schedule: Schedule
    public var coin: Money
    public var zones: [Zone]
    public var sectors: [ResidentSector]
    /// The polygon layer whose features are the residents' sectors (ids match ``sectors``).
    public var sectorLayer: String?
    /// The city's zone lines, when it publishes them (Pamplona: `SEGU_Lin_EsRegZonas`).
    public var zoneLayer: ZoneLayerSpec?
    /// The names of the days the tariff itself exempts, by the text of the regulated-hours rule
    /// that closes them (`Jul 06-Jul 25 off` → San Fermín), so that answers can say why.
    public var exemptionNames: [String: LocalizedText] = [:]

    /// Where the zone of a spot comes from: a line layer whose `field` holds the colour.
    public struct ZoneLayerSpec: Hashable, Sendable {
        /// The catalog or store layer name.
        public var layer: String
        /// The property holding each segment's colour.
        public var field: String
        /// Property value → zone id (`AZUL` → `blue`); other values are not regulated.
        public var values: [String: String]
        /// How far from a segment a spot still belongs to it.
        public var toleranceMetres: Double
    }

    public func zone(_ id: String) throws(TariffError) -> Zone {
        let key = id.lowercased()
        if let zone = zones.first(where: { $0.id == key || $0.name.es.lowercased() == key }) { return zone }
        // Common names in every language: "azul", "urdina", "blue".
        for zone in zones {
            for language in Language.allCases
            where zone.name[language].lowercased().split(separator: " ").contains(Substring(key)) {
                return zone
            }
        }
        throw .unknownZone(id, known: zones.map(\.id))
    }

    /// The cities with a tariff file in `directory` (data/tariffs).
    public static func available(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Reads `<dataDirectory>/tariffs/<city>.json` and the holiday layers it names from
    /// `<dataDirectory>/holidays/`.
    public static func load(city: String, dataDirectory: URL) throws(TariffError) -> CityTariffs {
        let tariffs = dataDirectory.appendingPathComponent("tariffs")
        let file = tariffs.appendingPathComponent("\(city).json")
        guard city.allSatisfy({ $0.isLetter || $0 == "-" }), FileManager.default.fileExists(atPath: file.path) else {
            throw .unknownCity(city, known: available(in: tariffs))
        }
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw .fileMalformed(file: file.path, path: "(file)", message: "cannot be read")
        }
        return try decode(data, file: file.path, holidaysDirectory: dataDirectory.appendingPathComponent("holidays"))
    }
}
