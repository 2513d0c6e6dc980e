import GeoqAR
import GeoqCore
import GeoqSchedule

/// `GET /v1/ar?lat=&lon=&heading=[&heading-ref=true|magnetic&declination=][&pitch=&roll=]
/// [&hfov=&vfov=][&width=&height=][&altitude=][&layer=fallas][&max-distance=][&curvature=true]
/// [&visible-only=true]`: the answer of `geoq ar --layer L --format json`, with the same option
/// names and defaults.
public enum AREndpoint {
    public static let parameters = EndpointDescription.ar.parameterNames

    public static func answer(_ query: QueryParameters, data: ServiceData) throws(Problem) -> ARAnswer {
        try query.allowOnly(parameters)
        let position = try query.point()
        let name = try query.value("layer") ?? "fallas"
        guard let layer = data.pointLayers[name] else {
            throw .unknownLayer(name, kind: "point", known: data.servedLayers(kind: "point"))
        }
        let heading = try query.degrees(
            "heading", in: -360...360,
            meaning: LocalizedText(
                es: "rumbo de la cámara", eu: "kameraren norabidea", en: "compass heading of the camera"))
        let magnetic = try query.choice("heading-ref", of: ["true", "magnetic"], default: "true") == "magnetic"
        // As in geoq ar: the declination turns magnetic headings into true ones; true headings
        // need none.
        let declination = try query.number(
            "declination", in: -180...180,
            meaning: LocalizedText(
                es: "declinación magnética, positiva al este", eu: "deklinazio magnetikoa, positiboa ekialdera",
                en: "magnetic declination, east positive"))
        let pitch =
            try query.number(
                "pitch", in: -90...90,
                meaning: LocalizedText(
                    es: "inclinación de la cámara, positiva hacia arriba", eu: "kameraren makurdura, positiboa gorantz",
                    en: "camera pitch, positive tilted up")) ?? 0
        let roll =
            try query.number(
                "roll", in: -180...180,
                meaning: LocalizedText(
                    es: "giro de la cámara, positivo en sentido horario",
                    eu: "kameraren biraketa, positiboa erlojuaren noranzkoan",
                    en: "camera roll, positive turned clockwise")) ?? 0
        let hfov = try fieldOfView("hfov", query) ?? 60
        let width = try pixels("width", query) ?? 1080
        let height = try pixels("height", query) ?? 1920
        let vfov =
            try fieldOfView("vfov", query)
            ?? ARCamera.verticalFieldOfView(horizontal: hfov, width: width, height: height)
        let altitude =
            try query.number(
                "altitude", in: -500...9000,
                meaning: LocalizedText(
                    es: "altitud del dispositivo en metros", eu: "gailuaren altitudea metrotan",
                    en: "device altitude in metres")) ?? 0
        let options = AROptions(
            maxDistance: try query.metres("max-distance"), earthCurvature: try query.flag("curvature"))
        let visibleOnly = try query.flag("visible-only")

        let trueHeading =
            magnetic
            ? ARAngles.trueHeading(magnetic: heading, declination: declination ?? 0) : ARAngles.normalized(heading)
        let camera = ARCamera(
            position: position, altitude: altitude, heading: trueHeading, pitch: pitch, roll: roll,
            horizontalFieldOfView: hfov, verticalFieldOfView: vfov, width: width, height: height)
        let targets = zip(layer.features, layer.positions).map { ARTarget(feature: $0, position: $1) }
        let labels = AROverlay.compute(camera: camera, targets: targets, geodesic: data.geodesic, options: options)
        return ARAnswer(camera: camera, labels: labels, visibleOnly: visibleOnly)
    }

    /// A field of view in degrees, strictly between 0 and 180, nil when absent.
    static func fieldOfView(_ name: String, _ query: QueryParameters) throws(Problem) -> Double? {
        guard
            let degrees = try query.number(
                name, in: 0...180,
                meaning: LocalizedText(
                    es: "campo de visión en grados", eu: "ikus-eremua gradutan", en: "field of view in degrees"))
        else {
            return nil
        }
        guard degrees > 0 && degrees < 180 else {
            throw .outOfRange(
                name,
                LocalizedText(
                    es: "\(name) debe ser mayor que 0 y menor que 180 grados; se recibió \(degrees)",
                    eu: "\(name) 0 baino handiagoa eta 180 gradu baino txikiagoa izan behar da; \(degrees) jaso da",
                    en: "\(name) must be more than 0 and less than 180 degrees, got \(degrees)"))
        }
        return degrees
    }

    /// A screen size in pixels, more than 0 and at most 100,000, nil when absent.
    static func pixels(_ name: String, _ query: QueryParameters) throws(Problem) -> Double? {
        guard
            let pixels = try query.number(
                name, in: 0...100_000,
                meaning: LocalizedText(
                    es: "tamaño de pantalla en píxeles", eu: "pantailaren tamaina pixeletan",
                    en: "screen size in pixels"))
        else {
            return nil
        }
        guard pixels > 0 else {
            throw .outOfRange(
                name,
                LocalizedText(
                    es: "\(name) debe ser mayor que 0 píxeles; se recibió \(pixels)",
                    eu: "\(name) 0 pixel baino handiagoa izan behar da; \(pixels) jaso da",
                    en: "\(name) must be more than 0 pixels, got \(pixels)"))
        }
        return pixels
    }
}
