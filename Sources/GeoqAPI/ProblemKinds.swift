import GeoqSchedule

/// The kinds of ``Problem`` the API answers, with their titles and, where the detail is the
/// service's own words, the detail in Spanish, Basque and English.
extension Problem {
    /// A required query parameter is absent; `detail` in one language (the tariff's own
    /// messages, already in the asker's), or in every language below.
    public static func missing(_ parameter: String, _ detail: String) -> Problem {
        Problem(
            type: "/problems/missing-parameter", title: "A required parameter is missing", status: 400,
            detail: detail, parameter: parameter)
    }

    /// A parameter is present but cannot be read (not a number, not UTF-8, ...).
    public static func invalid(_ parameter: String, _ detail: String) -> Problem {
        Problem(
            type: "/problems/invalid-parameter", title: "A parameter is not valid", status: 400, detail: detail,
            parameter: parameter)
    }

    /// A number is readable but outside the range the parameter allows.
    public static func outOfRange(_ parameter: String, _ detail: String) -> Problem {
        Problem(
            type: "/problems/out-of-range", title: "A parameter is out of range", status: 400, detail: detail,
            parameter: parameter)
    }

    public static func missing(_ parameter: String, _ detail: LocalizedText) -> Problem {
        missing(parameter, detail.en).detailed(detail)
    }

    public static func invalid(_ parameter: String, _ detail: LocalizedText) -> Problem {
        invalid(parameter, detail.en).detailed(detail)
    }

    public static func outOfRange(_ parameter: String, _ detail: LocalizedText) -> Problem {
        outOfRange(parameter, detail.en).detailed(detail)
    }

    /// A layer name the service does not hold (or not of the kind the endpoint needs).
    public static func unknownLayer(_ name: String, kind: String, known: [String]) -> Problem {
        let list = known.joined(separator: ", ")
        let (es, eu) = kind == "polygon" ? ("polígonos", "poligono") : ("puntos", "puntu")
        return Problem(
            type: "/problems/unknown-layer", title: "No such layer", status: 404, detail: "", parameter: "layer"
        ).detailed(
            LocalizedText(
                es: "no hay ninguna capa de \(es) llamada \"\(name)\"; capas de \(es): \(list)",
                eu: "ez dago \"\(name)\" izeneko \(eu)-geruzarik; \(eu)-geruzak: \(list)",
                en: "no \(kind) layer named \"\(name)\"; \(kind) layers: \(list)"))
    }

    /// A layer name the service does not serve, of any kind (the path of `/v1/layers/{name}`).
    public static func unknownLayer(_ name: String, known: [String]) -> Problem {
        let (list, shown) = (known.joined(separator: ", "), QueryParameters.shown(name))
        return Problem(
            type: "/problems/unknown-layer", title: "No such layer", status: 404, detail: "", parameter: "name"
        ).detailed(
            LocalizedText(
                es: "no hay ninguna capa llamada \"\(shown)\"; capas: \(list)",
                eu: "ez dago \"\(shown)\" izeneko geruzarik; geruzak: \(list)",
                en: "no layer named \"\(shown)\"; layers: \(list)"))
    }

    /// A collection id the OGC API face does not serve (the path of `/ogc/collections/{id}`).
    public static func unknownCollection(_ id: String, known: [String]) -> Problem {
        let (list, shown) = (known.joined(separator: ", "), QueryParameters.shown(id))
        return Problem(
            type: "/problems/unknown-collection", title: "No such collection", status: 404, detail: "",
            parameter: "collectionId"
        ).detailed(
            LocalizedText(
                es: "no hay ninguna colección llamada \"\(shown)\"; colecciones: \(list)",
                eu: "ez dago \"\(shown)\" izeneko bildumarik; bildumak: \(list)",
                en: "no collection named \"\(shown)\"; collections: \(list)"))
    }

    /// A feature id its collection does not hold (the path of `.../items/{featureId}`).
    public static func unknownFeature(_ id: String, collection: String) -> Problem {
        let shown = QueryParameters.shown(id)
        return Problem(
            type: "/problems/unknown-feature", title: "No such feature", status: 404, detail: "",
            parameter: "featureId"
        ).detailed(
            LocalizedText(
                es: "la colección \(collection) no tiene ningún elemento con id \"\(shown)\"",
                eu: "\(collection) bildumak ez du \"\(shown)\" id-a duen elementurik",
                en: "collection \(collection) has no feature with id \"\(shown)\""))
    }

    /// A request body that cannot be read: not UTF-8, not JSON, not points (`line` or
    /// `feature` says where). This one carries a parser's words, in English.
    public static func malformedBody(_ detail: String, line: Int? = nil, feature: Int? = nil) -> Problem {
        Problem(
            type: "/problems/malformed-body", title: "The request body cannot be read", status: 400, detail: detail,
            parameter: "body", line: line, feature: feature)
    }

    public static func malformedBody(_ detail: LocalizedText, line: Int? = nil, feature: Int? = nil) -> Problem {
        malformedBody(detail.en, line: line, feature: feature).detailed(detail)
    }

    /// A body of a media type the endpoint does not read.
    public static func unsupportedMediaType(_ got: String?, accepted: [String]) -> Problem {
        let list = accepted.joined(separator: ", ")
        let shown = got.map { "\"\($0)\"" }
        return Problem(
            type: "/problems/unsupported-media-type", title: "The body's media type is not accepted", status: 415,
            detail: "", parameter: "Content-Type"
        ).detailed(
            LocalizedText(
                es: "Content-Type \(shown ?? "ausente"); envíe uno de estos: \(list)",
                eu: "Content-Type \(shown ?? "falta da"); bidali hauetako bat: \(list)",
                en: "Content-Type \(shown ?? "missing"); send one of \(list)"))
    }

    /// A body over the service's size limit.
    public static func bodyTooLarge(limit: Int) -> Problem {
        Problem(
            type: "/problems/body-too-large", title: "The request body is too large", status: 413, detail: "",
            parameter: "body"
        ).detailed(
            LocalizedText(
                es: "el cuerpo supera los \(limit) bytes, el límite de este servicio (geoq serve --max-body-bytes)",
                eu: "gorputzak \(limit) byte baino gehiago ditu, zerbitzu honen muga (geoq serve --max-body-bytes)",
                en: "the body is over \(limit) bytes, this service's limit (geoq serve --max-body-bytes)"))
    }

    /// A batch of more points than the service answers in one request.
    public static func batchTooLarge(count: Int, limit: Int) -> Problem {
        Problem(
            type: "/problems/batch-too-large", title: "The batch holds too many points", status: 413, detail: "",
            parameter: "body"
        ).detailed(
            LocalizedText(
                es: "el lote tiene \(count) puntos o más; como máximo \(limit) por petición (geoq serve --max-batch)",
                eu:
                    "sortak \(count) puntu edo gehiago ditu; gehienez \(limit) eskaera bakoitzeko (geoq serve --max-batch)",
                en: "the batch holds \(count) points or more; at most \(limit) per request (geoq serve --max-batch)"))
    }

    /// No route answers this path.
    public static func notFound(path: String) -> Problem {
        Problem(type: "/problems/not-found", title: "No such endpoint", status: 404, detail: "").detailed(
            LocalizedText(
                es: "nada responde en \(path)", eu: "ezerk ez du erantzuten \(path) helbidean",
                en: "nothing answers \(path)"))
    }

    /// A documented path asked with a method it does not take.
    public static func methodNotAllowed(path: String, method: String, allowed: String) -> Problem {
        Problem(type: "/problems/method-not-allowed", title: "Method not allowed", status: 405, detail: "").detailed(
            LocalizedText(
                es: "\(path) admite \(allowed), no \(method)",
                eu: "\(path) helbideak \(allowed) onartzen du, ez \(method)",
                en: "\(path) takes \(allowed), not \(method)"))
    }

    /// Something failed on the service's side (the detail stays English: it is for the operator).
    public static func internalError(_ detail: String) -> Problem {
        Problem(type: "/problems/internal", title: "Internal error", status: 500, detail: detail)
    }

    /// A request head or body that did not arrive in time (`--header-timeout`,
    /// `--request-timeout`). English only: a head cut short has no `Accept-Language` to go by.
    public static func requestTimeout(_ detail: String) -> Problem {
        Problem(type: "/problems/request-timeout", title: "Request Timeout", status: 408, detail: detail)
    }

    /// The shared store (PostgreSQL) a request must write to or read from cannot be used right
    /// now; the answers from the snapshot go on. English only: the detail is the store's error,
    /// for the operator.
    public static func storeUnavailable(_ detail: String) -> Problem {
        Problem(type: "/problems/store-unavailable", title: "The store is unavailable", status: 503, detail: detail)
    }

    /// The service has no data loaded yet (or its last load failed).
    public static func notReady(_ detail: String) -> Problem {
        Problem(type: "/problems/not-ready", title: "The service is not ready", status: 503, detail: detail)
    }

    /// No data loaded yet.
    public static let stillLoading = notReady("").detailed(
        LocalizedText(
            es: "las capas aún se están cargando", eu: "geruzak kargatzen ari dira oraindik",
            en: "the layers are still loading"))

    /// Every problem type's title in every language.
    public static let titles: [String: LocalizedText] = accessTitles.merging(otherTitles) { $1 }

    private static let otherTitles: [String: LocalizedText] = [
        "/problems/missing-parameter": LocalizedText(
            es: "Falta un parámetro obligatorio", eu: "Derrigorrezko parametro bat falta da",
            en: "A required parameter is missing"),
        "/problems/invalid-parameter": LocalizedText(
            es: "Un parámetro no es válido", eu: "Parametro bat ez da baliozkoa", en: "A parameter is not valid"),
        "/problems/out-of-range": LocalizedText(
            es: "Un parámetro está fuera de rango", eu: "Parametro bat tartetik kanpo dago",
            en: "A parameter is out of range"),
        "/problems/unknown-layer": LocalizedText(
            es: "No existe esa capa", eu: "Ez dago geruza hori", en: "No such layer"),
        "/problems/unknown-collection": LocalizedText(
            es: "No existe esa colección", eu: "Ez dago bilduma hori", en: "No such collection"),
        "/problems/unknown-feature": LocalizedText(
            es: "No existe ese elemento", eu: "Ez dago elementu hori", en: "No such feature"),
        "/problems/not-found": LocalizedText(
            es: "No existe ese punto de acceso", eu: "Ez dago sarbide-puntu hori", en: "No such endpoint"),
        "/problems/method-not-allowed": LocalizedText(
            es: "Método no permitido", eu: "Metodo hori ez dago baimenduta", en: "Method not allowed"),
        "/problems/internal": LocalizedText(es: "Error interno", eu: "Barne-errorea", en: "Internal error"),
        "/problems/not-ready": LocalizedText(
            es: "El servicio no está listo", eu: "Zerbitzua ez dago prest", en: "The service is not ready"),
        "/problems/store-unavailable": LocalizedText(
            es: "El almacén no está disponible", eu: "Biltegia ez dago erabilgarri", en: "The store is unavailable"),
        "/problems/malformed-body": LocalizedText(
            es: "No se puede leer el cuerpo de la petición", eu: "Ezin da eskaeraren gorputza irakurri",
            en: "The request body cannot be read"),
        "/problems/unsupported-media-type": LocalizedText(
            es: "No se acepta el tipo de medio del cuerpo", eu: "Gorputzaren euskarri-mota ez da onartzen",
            en: "The body's media type is not accepted"),
        "/problems/body-too-large": LocalizedText(
            es: "El cuerpo de la petición es demasiado grande", eu: "Eskaeraren gorputza handiegia da",
            en: "The request body is too large"),
        "/problems/batch-too-large": LocalizedText(
            es: "El lote tiene demasiados puntos", eu: "Sortak puntu gehiegi ditu",
            en: "The batch holds too many points"),
        "/problems/ticket-refused": LocalizedText(
            es: "La tarifa no admite este tique", eu: "Tarifak ez du txartel hau onartzen",
            en: "The tariff refuses this ticket"),
        "/problems/unknown-city": LocalizedText(
            es: "No hay tarifas para esta ciudad", eu: "Ez dago tarifarik hiri honetarako",
            en: "No tariffs for this city"),
        "/problems/unknown-zone": LocalizedText(es: "No existe esa zona", eu: "Ez dago gune hori", en: "No such zone"),
    ]
}
