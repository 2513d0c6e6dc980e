/// The languages geoq answers in: Spanish, Basque (euskara) and English, as the original
/// Pamplona parking app did.
public enum Language: String, CaseIterable, Codable, Sendable {
    case es, eu, en

    /// Picks the first supported language from an HTTP `Accept-Language` value
    /// (`eu-ES,eu;q=0.9,es;q=0.8`), honouring q-values; nil when none is supported.
    public static func preferred(acceptLanguage header: String) -> Language? {
        var choices: [(language: Language, q: Double, order: Int)] = []
        for (order, item) in header.split(separator: ",").enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: " \t") }
            guard let tag = parts.first?.lowercased(), !tag.isEmpty else { continue }
            let primary = String(tag.split(separator: "-").first ?? "")
            guard let language = Language(rawValue: primary) else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                q = Double(parameter.dropFirst(2)) ?? 0
            }
            if q > 0 { choices.append((language, q, order)) }
        }
        return choices.sorted { ($0.q, -$0.order) > ($1.q, -$1.order) }.first?.language
    }
}

/// One text in every answer language.
public struct LocalizedText: Codable, Hashable, Sendable {
    public var es: String
    public var eu: String
    public var en: String

    public init(es: String, eu: String, en: String) {
        self.es = es
        self.eu = eu
        self.en = en
    }

    public subscript(language: Language) -> String {
        switch language {
        case .es: es
        case .eu: eu
        case .en: en
        }
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
