import GeoqCore

/// How every reader picks a feature's id and name from ``ReadOptions``.
struct FeatureNaming: Sendable {
    var options: ReadOptions

    /// The id: the `idField` attribute when requested (nil if the feature lacks it, which the
    /// reader reports), else the format's own id (GeoJSON `id`, KML `id` attribute), else the
    /// 1-based feature number.
    func id(properties: [String: PropertyValue], nativeID: String?, number: Int) -> String? {
        if let field = options.idField {
            return properties[field]?.text
        }
        if let nativeID, !nativeID.isEmpty { return nativeID }
        return String(number)
    }

    /// The name: the `nameField` attribute when requested, else the format's own name.
    func name(properties: [String: PropertyValue], nativeName: String?) -> String? {
        if let field = options.nameField { return properties[field]?.text }
        return nativeName
    }

    /// Error for a feature whose requested id attribute is missing or null.
    func missingIDError(
        file: String, line: Int? = nil, featureNumber: Int, properties: [String: PropertyValue]
    ) -> FormatError {
        let field = options.idField ?? ""
        let present = properties[field] != nil
        let available = properties.keys.sorted().joined(separator: ", ")
        let message =
            present
            ? "id field '\(field)' is empty or null in this feature"
            : "id field '\(field)' is not an attribute of this feature (attributes: \(available.isEmpty ? "none" : available))"
        return FormatError(
            .missingField, file: file, line: line, featureNumber: featureNumber, column: field,
            message: message)
    }

    /// Error when the requested name attribute appears in no feature of the file (a typo).
    func unknownNameFieldError(file: String, available: [String]) -> FormatError {
        FormatError(
            .missingField, file: file, column: options.nameField,
            message:
                "name field '\(options.nameField ?? "")' is not an attribute of any feature "
                + "(attributes: \(available.joined(separator: ", ")))"
        )
    }
}
