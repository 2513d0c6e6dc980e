import GeoqQuery

/// How to build one named layer from a source file: the entries of `data/layers.json`.
public struct LayerSpec: Codable, Hashable, Sendable {
    /// The name users type (`--layer pamplona-sectors`).
    public var name: String
    /// One line for `--help` and answers.
    public var title: String
    /// The title in the other answer languages (`es`, `eu`), for the map page's layer switcher;
    /// the English `title` where one is missing.
    public var titles: [String: String]?
    /// Path of the source, relative to the shared data directory unless absolute; a path that
    /// starts with `external:` is relative to the `external` folder beside the catalog (the
    /// repository's `data/external`, where large data fetched on demand lives, never committed).
    public var source: String
    /// The command that fetches a source that is not shipped (e.g. `tools/fetch-benchmark-data.sh
    /// timezones`): such a layer is optional, and without its file, commands that ask for it
    /// fail with a message naming this command while the other layers work as before.
    public var fetch: String?
    /// The source's coordinate reference system when the file does not declare it
    /// (e.g. "EPSG:25830"); overrides nothing the file declares unless `forceCRS` is set.
    public var crs: String?
    /// Use `crs` even when the file declares another one.
    public var forceCRS: Bool?
    /// Attribute holding the feature id (default: the format's own id, or the row number).
    public var idField: String?
    /// Builds each id from attributes, for sources whose id column has gaps:
    /// `{field}` inserts a value, `{field:0N}` a whole number zero-padded to N digits.
    /// When both are set, `idField` is checked against the template: a row where it is empty
    /// is reported in the layer's notes, a row where it differs is an error.
    public var idTemplate: String?
    /// Used for the rows where `idField` is empty (a template as in `idTemplate`); each such
    /// row is reported in the layer's notes. Without it an empty id is an error.
    public var idFallback: String?
    /// Attribute holding the display name.
    public var nameField: String?
    /// A label for the features whose `nameField` is empty or that have none (a template as in
    /// `idTemplate`): Valencia's disabled-parking bays have no street, only their number of
    /// places; 84 of its traffic cameras have no description, only their camera id.
    public var nameFallback: String?
    /// For a user's own file (`geoq import FILE`): find the name and id attributes among the
    /// usual spellings when `nameField` or `idField` is not given (``AttributeDetection``).
    /// Catalog entries declare their fields instead.
    public var detectFields: Bool?
    /// Attribute holding each feature's category (e.g. a falla's competition section).
    public var categoryField: String?
    /// How category codes become words and are ordered: "falla-sections" (E, 1A … 8C, FC) or
    /// "falla-sections-infantil" (IE, 1 … 22, FC). Without it categories are shown as written.
    public var categoryScheme: String?
    /// For point layers that are services (car parks, hospitals, …): the type they are grouped
    /// under by `geoq services`.
    public var serviceType: String?
    /// For a service layer that mixes kinds of place (Valencia's hospitals file holds hospitals,
    /// health centres and local surgeries, told apart by its `Tipo`): the service type of the
    /// features of each category (a value of `categoryField`); the others get `serviceType`.
    public var serviceTypeByCategory: [String: String]?
    /// Other layers whose features share this layer's ids (a falla's children's falla and
    /// marquee): answers name the linked feature under `as`.
    public var links: [Link]?
    /// Keep only some features, renaming them (how approximate layers are derived).
    public var select: Selection?
    /// Leave out rows or records that have no geometry (they are counted as skipped) instead
    /// of refusing the file.
    public var skipEmptyGeometry: Bool?
    /// Set when the layer only approximates what its name promises: the explanation that
    /// every answer from this layer carries, in each answer language (a plain string is the
    /// English note alone).
    public var approximate: ApproximationNote?
    /// Makes this a time-zone layer: the attribute holding each feature's IANA time-zone id.
    /// Its which-sector answers then carry the zone, its UTC offset and the local time.
    public var timeZoneField: String?

    public typealias Link = PointLayer.Link

    public struct Selection: Codable, Hashable, Sendable {
        /// The attribute compared with each entry's `value`.
        public var field: String
        public var features: [Entry]

        public struct Entry: Codable, Hashable, Sendable {
            public var value: String
            public var id: String
            public var name: String
        }
    }

    public init(
        name: String, title: String, source: String, crs: String? = nil, forceCRS: Bool? = nil,
        idField: String? = nil, idTemplate: String? = nil, nameField: String? = nil, select: Selection? = nil,
        approximate: ApproximationNote? = nil, skipEmptyGeometry: Bool? = nil, detectFields: Bool? = nil
    ) {
        self.detectFields = detectFields
        self.name = name
        self.title = title
        self.source = source
        self.crs = crs
        self.forceCRS = forceCRS
        self.idField = idField
        self.idTemplate = idTemplate
        self.nameField = nameField
        self.select = select
        self.approximate = approximate
        self.skipEmptyGeometry = skipEmptyGeometry
    }
}

extension LayerSpec {
    /// How the point layer built from this entry categorises, types and links its features.
    public var pointScheme: PointLayer.Scheme {
        PointLayer.Scheme(
            categoryField: categoryField, categoryScheme: categoryScheme, serviceType: serviceType,
            serviceTypeByCategory: serviceTypeByCategory, links: links ?? [])
    }
}
