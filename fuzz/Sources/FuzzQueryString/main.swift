import CFuzzerDriver
import Foundation
import GeoqAPI
import GeoqCore
import GeoqFormats
import GeoqIncidents
import GeoqQuery
import GeoqTariffs

/// A request's query string as the service reads it, asked of the endpoint it names: the input
/// is `operationId?query`, optionally followed by a line holding the Accept-Language header
/// (`sector?lat=42.81&lon=-1.64\nen-GB,en;q=0.8`). Every answer or Problem is fine; a trap is
/// not. The seeds (`GEOQ_FUZZ_SEEDS=folder`) are each endpoint's documented examples.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let (request, header) = split(text, at: "\n")
    let (operation, query) = split(request, at: "?")
    _ = try? ask(operation, QueryParameters(query: query ?? ""), acceptLanguage: header)
    return 0
}

/// The text before the first `separator` and the text after it (nil without one).
func split(_ text: String, at separator: Character) -> (String, String?) {
    guard let index = text.firstIndex(of: separator) else { return (text, nil) }
    return (String(text[..<index]), String(text[text.index(after: index)...]))
}

/// The endpoints asked, by operationId (the others take no query, or a body).
let answered: Set = [
    "sector", "sectorBatch", "nearest", "services", "ar", "tariff", "park", "incidents", "layerFeatures",
]

func ask(_ operation: String, _ query: QueryParameters, acceptLanguage: String?) throws(Problem) {
    let now = Date(timeIntervalSince1970: 1_794_900_000)
    switch operation {
    case "sector": _ = try SectorEndpoint.answer(query, data: data, acceptLanguage: acceptLanguage, now: now)
    case "sectorBatch": _ = try SectorBatchEndpoint.target(query, data: data, acceptLanguage: acceptLanguage)
    case "nearest": _ = try NearestEndpoint.answer(query, data: data)
    case "services": _ = try ServicesEndpoint.answer(query, data: data)
    case "ar": _ = try AREndpoint.answer(query, data: data)
    case "tariff": _ = try TariffEndpoint.answer(query, data: data, acceptLanguage: acceptLanguage, now: now)
    case "park": _ = try ParkEndpoint.answerText(query, data: data, acceptLanguage: acceptLanguage, now: now)
    case "incidents": _ = try IncidentsEndpoint.answer(query, data: data)
    case "layerFeatures":
        // The layer's name is the path's last segment; here the last `name` parameter.
        let name = query.pairs.last { $0.name == "name" }?.value ?? ""
        let selection = try LayerFeaturesEndpoint.selection(
            layer: name, QueryParameters(query.pairs.filter { $0.name != "name" }), data: data,
            acceptLanguage: acceptLanguage)
        _ = LayerFeaturesEndpoint.body(selection, data: data)
    default: break
    }
}

/// What the endpoints answer from: Pamplona's sectors and tariffs, Valencia's fallas and
/// hospitals (from the shared data folder, `GEOQ_DATA_DIR`, else `../shared/data` beside the
/// repository), and three incidents.
let data: ServiceData = {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let shared = URL(
        fileURLWithPath: ProcessInfo.processInfo.environment["GEOQ_DATA_DIR"]
            ?? repository.appendingPathComponent("../shared/data").path)
    do {
        let geodesic = KarneyGeodesic.wgs84
        let sectors = try GeoJSONReader(options: ReadOptions(idField: "ID", nameField: "NOMBRE")).read(
            at: shared.appendingPathComponent("pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json"))
        let sectorLayer = Layer(
            name: "pamplona-sectors", title: "Pamplona sectors", features: sectors.features,
            approximation: ApproximationNote(en: "Approximate.", es: "Aproximado.", eu: "Gutxi gorabehera."),
            source: sectors.source, sourceCRS: "EPSG:4326", notes: [])
        let fallas = try OpendatasoftCSVReader(options: ReadOptions(nameField: "Nom / Nombre")).read(
            at: shared.appendingPathComponent("valencia/falles-fallas.csv"))
        let hospitals = try OpendatasoftCSVReader(options: ReadOptions(nameField: "Nombre")).read(
            at: shared.appendingPathComponent("valencia/hospitales.csv"))
        let tariffs = try CityTariffs.load(city: "pamplona", dataDirectory: repository.appendingPathComponent("data"))
        let seen = Date(timeIntervalSince1970: 1_794_900_000)
        let incidents = [
            Incident(
                id: "cut", source: "fuzz", type: .trafficCut, categories: ["Corte de tráfico"], title: "Corte",
                link: nil, published: seen, description: "Obras",
                geometry: .point(Point(latitude: 41.654, longitude: -0.879)), seen: seen),
            Incident(
                id: "line", source: "fuzz", type: .waterCut, categories: [], title: "Agua", link: "https://example.org",
                published: nil, description: "",
                geometry: .lineString([
                    Point(latitude: 41.64, longitude: -0.91), Point(latitude: 41.65, longitude: -0.9),
                ]),
                seen: seen),
            Incident(
                id: "nowhere", source: "fuzz", type: nil, categories: [], title: "Sin lugar", link: nil, published: nil,
                description: "", geometry: nil, seen: seen),
        ]
        return ServiceData(
            sectorLookups: ["pamplona-sectors": SectorLookup(layer: sectorLayer, geodesic: geodesic)],
            pointLayers: [
                "fallas": try PointLayer(
                    name: "fallas", title: "Fallas", features: fallas.features,
                    scheme: PointLayer.Scheme(categoryField: "Secció / Seccion", categoryScheme: "falla-sections"),
                    approximation: nil),
                "valencia-hospitals": try PointLayer(
                    name: "valencia-hospitals", title: "Hospitals", features: hospitals.features,
                    scheme: PointLayer.Scheme(
                        categoryField: "Tipo", serviceType: "hospital",
                        serviceTypeByCategory: ["Centro de Salud": "health-centre"]),
                    approximation: nil),
            ],
            serviceLayers: [("hospital", "valencia-hospitals"), ("health-centre", "valencia-hospitals")],
            layers: [
                .init(
                    name: "pamplona-sectors", title: "Sectors", kind: "polygon", features: sectors.features.count,
                    approximate: true, error: nil),
                .init(
                    name: "fallas", title: "Fallas", kind: "point", features: fallas.features.count, approximate: false,
                    error: nil),
                .init(
                    name: "valencia-hospitals", title: "Hospitals", kind: "point", features: hospitals.features.count,
                    approximate: false, error: nil),
                .init(
                    name: "broken", title: nil, kind: "polygon", features: nil, approximate: false, error: "unreadable"),
            ],
            tariffs: ["pamplona": tariffs], tariffProblems: ["bilbao": "unreadable"], incidents: incidents,
            incidentsRefreshedAt: seen, storeFile: "fuzz.gpkg", defaultSectorLayer: "pamplona-sectors",
            geodesic: geodesic, loadedAt: seen)
    } catch {
        FileHandle.standardError.write(Data("FuzzQueryString: cannot load the data it answers from: \(error)\n".utf8))
        exit(2)
    }
}()

if let folder = ProcessInfo.processInfo.environment["GEOQ_FUZZ_SEEDS"] {
    for endpoint in EndpointDescription.all where answered.contains(endpoint.operationId) {
        let examples = endpoint.parameters.compactMap { p in p.example.map { "\(p.name)=\($0)" } }
        let seed = "\(endpoint.operationId)?\(examples.joined(separator: "&"))"
        _ = FileManager.default.createFile(
            atPath: "\(folder)/\(endpoint.operationId)", contents: Data(seed.utf8))
    }
    _ = FileManager.default.createFile(
        atPath: "\(folder)/layerFeatures-name",
        contents: Data("layerFeatures?name=fallas&bbox=-0.4,39.4,-0.3,39.5".utf8))
    _ = FileManager.default.createFile(
        atPath: "\(folder)/park-language",
        contents: Data("park?lat=42.81&lon=-1.64&zone=blue&minutes=30\neu,es;q=0.5".utf8))
    exit(0)
}
_ = data
exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
