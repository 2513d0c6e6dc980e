import GeoqSchedule

/// An error answer of the HTTP API: an RFC 9457 "problem detail" (`application/problem+json`).
///
/// `type` is a URI reference naming the kind of problem (relative, under `/problems/`), `title`
/// its short human summary (the same for every problem of the type), `detail` what was wrong
/// with this request; `parameter` (an extension member) names the query parameter or body
/// field at fault, so that a client can point at it, and `line` or `feature` where in a batch
/// body.
///
/// Languages: `title` and `detail` are English as made; ``localized(to:)`` gives them in Spanish
/// or Basque (the service picks the endpoint's `lang`, else `Accept-Language`, else English).
/// Every title is translated (``Problem/titles``); a detail is when it was written in the three
/// languages (``localizedDetail``) — those about parameters, layers, paths and limits are; the
/// places in a malformed body and the service's own failures stay English.
public struct Problem: Error, Codable, Hashable, Sendable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    public var parameter: String?
    /// A stable code for the problem where the domain has one (a refused ticket's
    /// `beyond-max-stay`, say), the same as the command line's JSON errors.
    public var code: String?
    /// The line of a batch body at fault (NDJSON or CSV, from 1).
    public var line: Int?
    /// The feature of a batch body at fault (a FeatureCollection's, from 1).
    public var feature: Int?
    /// The detail in every answer language, when it was written so (not sent: `detail` is).
    public var localizedDetail: LocalizedText?
    /// The language the endpoint chose (its `lang` parameter), ahead of `Accept-Language`.
    public var language: Language?

    enum CodingKeys: String, CodingKey { case type, title, status, detail, parameter, code, line, feature }

    public init(
        type: String, title: String, status: Int, detail: String, parameter: String? = nil, code: String? = nil,
        line: Int? = nil, feature: Int? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.parameter = parameter
        self.code = code
        self.line = line
        self.feature = feature
    }

    /// The media type of a problem body.
    public static let mediaType = "application/problem+json"

    /// This problem in `language`: its type's title, and its detail when it was written in
    /// every language.
    public func localized(to language: Language) -> Problem {
        var problem = self
        if let title = Self.titles[type] { problem.title = title[language] }
        if let detail = localizedDetail { problem.detail = detail[language] }
        return problem
    }

    /// The same problem with its detail in every language.
    func detailed(_ text: LocalizedText) -> Problem {
        var problem = self
        problem.detail = text.en
        problem.localizedDetail = text
        return problem
    }
}
