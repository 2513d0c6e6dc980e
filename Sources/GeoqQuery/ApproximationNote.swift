import GeoqSchedule

/// Why a layer only approximates what its name promises, in the answer languages: the note
/// every answer from the layer carries, in the answer's language.
///
/// In data/layers.json either an object `{"en": "...", "es": "...", "eu": "..."}` (`en`
/// required) or, as older catalogs wrote it, a plain string: the English note alone. A
/// language without a translation gets the English note.
public struct ApproximationNote: Codable, Hashable, Sendable {
    public var en: String
    public var es: String?
    public var eu: String?

    public init(en: String, es: String? = nil, eu: String? = nil) {
        self.en = en
        self.es = es
        self.eu = eu
    }

    /// The note in `language`; English when it has no translation.
    public subscript(language: Language) -> String {
        switch language {
        case .es: es ?? en
        case .eu: eu ?? en
        case .en: en
        }
    }

    private enum CodingKeys: String, CodingKey { case en, es, eu }

    public init(from decoder: any Decoder) throws {
        if let english = try? decoder.singleValueContainer().decode(String.self) {
            self.init(en: english)
            return
        }
        guard let c = try? decoder.container(keyedBy: CodingKeys.self) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: #"expected a string (the English note) or an object {"en", "es", "eu"}"#))
        }
        self.init(
            en: try c.decode(String.self, forKey: .en), es: try c.decodeIfPresent(String.self, forKey: .es),
            eu: try c.decodeIfPresent(String.self, forKey: .eu))
    }

    /// A plain string when there is no translation, as older catalogs wrote it.
    public func encode(to encoder: any Encoder) throws {
        if es == nil && eu == nil {
            var c = encoder.singleValueContainer()
            try c.encode(en)
            return
        }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(en, forKey: .en)
        try c.encodeIfPresent(es, forKey: .es)
        try c.encodeIfPresent(eu, forKey: .eu)
    }
}
