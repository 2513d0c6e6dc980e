import GeoqCore

/// What a reader returns: the features, the CRS the file declares (never applied: the readers do
/// no reprojection), where they came from, and what the reader noticed but did not fail on.
public struct FeatureCollection: Sendable {
    public var features: [Feature]
    /// The declared coordinate reference system, or nil when the file declares none.
    public var crs: CRSDeclaration?
    /// The file path (or the name given to an in-memory reader).
    public var source: String
    /// Things the reader tolerated and the caller may want to tell the user about: skipped
    /// features, a guessed text encoding, a mixed KML MultiGeometry reduced to its polygons...
    public var warnings: [String]

    public init(features: [Feature], crs: CRSDeclaration?, source: String, warnings: [String] = []) {
        self.features = features
        self.crs = crs
        self.source = source
        self.warnings = warnings
    }

    /// True when some coordinate cannot be longitude/latitude (|x| > 180 or |y| > 90): the file
    /// is most likely projected (e.g. EPSG:25830 metres) whatever it declares, so a caller seeing
    /// `crs == nil` can suggest `--crs EPSG:25830`.
    public func coordinatesLookProjected() -> Bool {
        for feature in features {
            let box = feature.geometry.boundingBox
            guard !box.isEmpty else { continue }
            if box.minX < -180 || box.maxX > 180 || box.minY < -90 || box.maxY > 90 { return true }
        }
        return false
    }

    /// Ids used by more than one feature, with their counts (Valencia's census sections repeat
    /// three codes). The readers keep such features as they are; a layer decides what to do.
    public func duplicateIDs() -> [String: Int] {
        var counts: [String: Int] = [:]
        for feature in features { counts[feature.id, default: 0] += 1 }
        return counts.filter { $0.value > 1 }
    }

    /// The bounding box of all features (``BoundingBox/empty`` for none).
    public var boundingBox: BoundingBox {
        features.reduce(BoundingBox.empty) { $0.union($1.geometry.boundingBox) }
    }
}
