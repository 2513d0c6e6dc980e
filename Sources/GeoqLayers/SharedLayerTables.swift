import GeoqCore
import GeoqStore

/// The layers of a shared store over one connection: what the layer library reads, and what an
/// import and an incident refresh write.
///
/// The operations mean what the GeoPackage's of the same names mean (`GeoPackage.layers()`,
/// `features(of:)`, `replaceLayer(_:)`, `replacePartition(...)`), with one addition: every
/// committed change of a layer gives it a new version, announced to the other processes, which is
/// how a replica knows which layers to read again (``FeatureCache``).
///
/// Failures of the database are ``SharedStoreError``s; a layer the store cannot hold, or rows it
/// cannot read as features, are GeoqStore's `StoreError`, as a GeoPackage says them. Not
/// Sendable: it owns one connection.
public protocol SharedLayerTables {
    /// Every layer with its version, sorted by name (none before the first import).
    func layers() throws(SharedStoreError) -> [(info: LayerInfo, version: Int64)]

    /// Every layer's version by name: what a replica compares with what it holds.
    func versions() throws(SharedStoreError) -> [String: Int64]

    /// The features of layer `name`, in stored order.
    func features(of name: String) throws -> [Feature]

    /// Writes `layer`, replacing any layer of that name, in one transaction.
    func replaceLayer(_ layer: StoredLayerInput) throws

    /// Replaces, in one transaction, the rows of layer `name` whose text column `column` holds
    /// `value` with the features `makeFeatures` makes from those rows' ids, leaving the other rows
    /// as they were. Nil, having written nothing, when the layer cannot take a partition as it is
    /// (then the caller writes it whole).
    func replacePartition(
        of name: String, column: String, value: String, source: String, notes: [String],
        with makeFeatures: ([String]) -> [Feature]
    ) throws -> GeoPackage.PartitionReplacement?
}
