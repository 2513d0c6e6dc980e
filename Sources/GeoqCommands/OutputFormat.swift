import ArgumentParser

/// How answers are printed: `--format text|json|geojson`.
package enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// Sentences for people.
    case text
    /// One JSON object per answer (pretty for a single answer, one line each in a batch).
    case json
    /// A GeoJSON FeatureCollection (RFC 7946); in a batch, one per line (RFC 8142 style).
    case geojson
}
