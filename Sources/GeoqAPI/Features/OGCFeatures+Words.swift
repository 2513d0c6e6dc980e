import GeoqSchedule

extension OGCFeatures {
    /// The face's own words, in each answer language.
    enum Words {
        static let description = LocalizedText(
            es:
                "Las capas de geoq (sectores, barrios, fallas, servicios, zonas horarias) y las incidencias de tráfico, como OGC API - Features.",
            eu:
                "geoq-en geruzak (sektoreak, auzoak, falak, zerbitzuak, ordu-eremuak) eta trafiko-gorabeherak, OGC API - Features gisa.",
            en:
                "geoq's layers (sectors, districts, fallas, services, time zones) and the traffic incidents, as OGC API - Features."
        )

        static let collections = LocalizedText(es: "Colecciones", eu: "Bildumak", en: "Collections")
        static let conformance = LocalizedText(
            es: "Clases de conformidad", eu: "Adostasun-klaseak", en: "Conformance classes")
        static let features = LocalizedText(es: "Elementos", eu: "Elementuak", en: "Features")
        static let api = LocalizedText(es: "Definición de la API", eu: "APIaren definizioa", en: "API definition")

        /// A collection's description: its kind and size, and why it is approximate.
        static func describe(_ collection: OGCCollection, _ language: Language) -> String {
            let count = collection.features.count
            var text: String
            switch collection.kind {
            case .polygon:
                text =
                    LocalizedText(
                        es: "Capa de polígonos, \(count) elementos.", eu: "Poligono-geruza, \(count) elementu.",
                        en: "Polygon layer, \(count) features.")[language]
            case .point:
                text =
                    LocalizedText(
                        es: "Capa de puntos, \(count) elementos.", eu: "Puntu-geruza, \(count) elementu.",
                        en: "Point layer, \(count) features.")[language]
            case .incidents:
                text =
                    LocalizedText(
                        es:
                            "Incidencias de los canales de la ciudad, \(count); datetime filtra por la fecha de publicación.",
                        eu:
                            "Hiriko jarioetako gorabeherak, \(count); datetime-k argitalpen-dataren arabera iragazten du.",
                        en: "Incidents of the city feeds, \(count); datetime filters by the date each was published.")[
                        language]
            }
            if let note = collection.approximation { text += " " + note[language] }
            return text
        }
    }
}
