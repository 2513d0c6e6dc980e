import GeoqSchedule

/// The problems of who may ask: no or a bad credential (401), not allowed (403), too many
/// requests (429), a request a browser on another site could have forged (403, 421), and the
/// limits of tracking (devices, hooks, fixes). None says whether an id exists in another tenant.
extension Problem {
    /// No credential, or one that is not a valid key or token (unknown, forged, revoked, expired:
    /// the same words for each, so that a guess learns nothing).
    public static func unauthorized(credentialGiven: Bool) -> Problem {
        Problem(type: "/problems/unauthorized", title: "Authentication needed", status: 401, detail: "").detailed(
            credentialGiven
                ? LocalizedText(
                    es: "la clave o el token no es válido (desconocido, revocado o caducado)",
                    eu: "gakoa edo tokena ez da baliozkoa (ezezaguna, baliogabetua edo iraungia)",
                    en: "the key or token is not valid (unknown, revoked or expired)")
                : LocalizedText(
                    es: "este punto de acceso necesita una clave: Authorization: Bearer CLAVE",
                    eu: "sarbide-puntu honek gako bat behar du: Authorization: Bearer GAKOA",
                    en: "this endpoint needs a key: Authorization: Bearer KEY"))
    }

    /// A valid credential without the scope the endpoint needs.
    public static func forbidden(scope: String) -> Problem {
        Problem(type: "/problems/forbidden", title: "Not allowed", status: 403, detail: "").detailed(
            LocalizedText(
                es: "la clave no tiene el permiso \"\(scope)\" que necesita este punto de acceso",
                eu: "gakoak ez du sarbide-puntu honek behar duen \"\(scope)\" baimena",
                en: "the key does not have the \"\(scope)\" scope this endpoint needs"))
    }

    /// A device token used for what it does not speak for.
    public static func otherDevice(_ device: String) -> Problem {
        Problem(type: "/problems/forbidden", title: "Not allowed", status: 403, detail: "").detailed(
            LocalizedText(
                es: "este token sólo envía posiciones del dispositivo \"\(device)\"",
                eu: "token honek \"\(device)\" gailuaren kokapenak soilik bidaltzen ditu",
                en: "this token posts the fixes of device \"\(device)\" only"))
    }

    /// A write sent from a web page of another origin than those allowed (`--cors-origin`).
    public static func originNotAllowed(_ origin: String) -> Problem {
        Problem(type: "/problems/origin-not-allowed", title: "Origin not allowed", status: 403, detail: "").detailed(
            LocalizedText(
                es: "no se aceptan peticiones de páginas de \(origin) (geoq serve --cors-origin)",
                eu: "ez dira onartzen \(origin) orrietako eskaerak (geoq serve --cors-origin)",
                en: "requests from pages of \(origin) are not accepted (geoq serve --cors-origin)"))
    }

    /// A Host this service does not answer for (DNS rebinding, a misrouted request).
    public static func hostNotAllowed(_ host: String) -> Problem {
        Problem(type: "/problems/host-not-allowed", title: "Host not served", status: 421, detail: "").detailed(
            LocalizedText(
                es: "este servicio no responde a Host \"\(host)\" (geoq serve --allowed-host)",
                eu: "zerbitzu honek ez dio erantzuten Host \"\(host)\"-ri (geoq serve --allowed-host)",
                en: "this service does not answer for Host \"\(host)\" (geoq serve --allowed-host)"))
    }

    /// Over a rate limit; `Retry-After` says when to come back.
    public static func tooManyRequests(retryAfter seconds: Int) -> Problem {
        Problem(type: "/problems/too-many-requests", title: "Too many requests", status: 429, detail: "").detailed(
            LocalizedText(
                es: "demasiadas peticiones; vuelva a intentarlo dentro de \(seconds) s",
                eu: "eskaera gehiegi; saiatu berriro \(seconds) s barru",
                en: "too many requests; try again in \(seconds) s"))
    }

    /// A tracking limit a request would pass (devices or hooks of a tenant, fixes in a batch, a
    /// device id's length).
    public static func overLimit(_ parameter: String, _ detail: LocalizedText) -> Problem {
        Problem(
            type: "/problems/over-limit", title: "Over a limit of this service", status: 422, detail: "",
            parameter: parameter
        ).detailed(detail)
    }

    /// An id this tenant has no such thing of (whether another tenant has is not said).
    public static func unknown(_ what: String, id: String) -> Problem {
        Problem(
            type: "/problems/unknown-\(what)", title: "Not found", status: 404, detail: "", parameter: "id"
        ).detailed(
            LocalizedText(
                es: "no hay ningún \(what) con id \"\(id)\"", eu: "ez dago \"\(id)\" id-a duen \(what)rik",
                en: "no \(what) with id \"\(id)\""))
    }

    static let accessTitles: [String: LocalizedText] = [
        "/problems/unauthorized": LocalizedText(
            es: "Hace falta autenticarse", eu: "Autentifikatu behar da", en: "Authentication needed"),
        "/problems/forbidden": LocalizedText(es: "No permitido", eu: "Ez dago baimenduta", en: "Not allowed"),
        "/problems/origin-not-allowed": LocalizedText(
            es: "Origen no permitido", eu: "Jatorria ez dago baimenduta", en: "Origin not allowed"),
        "/problems/host-not-allowed": LocalizedText(
            es: "Host no servido", eu: "Host-a ez da zerbitzatzen", en: "Host not served"),
        "/problems/too-many-requests": LocalizedText(
            es: "Demasiadas peticiones", eu: "Eskaera gehiegi", en: "Too many requests"),
        "/problems/over-limit": LocalizedText(
            es: "Supera un límite del servicio", eu: "Zerbitzuaren muga bat gainditzen du",
            en: "Over a limit of this service"),
        "/problems/unknown-hook": LocalizedText(es: "No encontrado", eu: "Ez da aurkitu", en: "Not found"),
        "/problems/unknown-device": LocalizedText(es: "No encontrado", eu: "Ez da aurkitu", en: "Not found"),
        "/problems/unknown-key": LocalizedText(es: "No encontrado", eu: "Ez da aurkitu", en: "Not found"),
    ]
}
