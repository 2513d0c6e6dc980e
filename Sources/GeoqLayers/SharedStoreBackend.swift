/// A database that many geoq processes share as their store, as the layers use it.
///
/// GeoqLayers links no database client: a face that links one hands its conforming type to
/// ``StoreAddress/init(parsing:sharedBackend:relativeTo:environment:)``, which makes the value from
/// a `scheme://` store address (GeoqPostGIS's `PostGISBackend` reads `postgresql://`). From then
/// on the layer library, the importer, the incident store and the tracking store reach the
/// database only through this protocol.
///
/// The value is the address and nothing else (equal and hashed by it; its description is the
/// address without the password): it is cheap to copy and to keep in a ``StoreAddress``, and
/// every connection is made by the calls below.
public protocol SharedStoreBackend: Sendable, Hashable, CustomStringConvertible {
    /// Reads a store address written `scheme://...`; `environment` may supply what the address
    /// leaves out (a user, a password). A scheme the backend does not read, or an address it
    /// cannot use, is a ``SharedStoreError/Kind/badAddress``.
    init(parsing address: String, environment: [String: String]) throws(SharedStoreError)

    /// A connection of its own to the store's layers, for one caller at a time.
    func connectLayers() throws(SharedStoreError) -> any SharedLayerTables

    /// The store's tracking tables, over connections of their own (made when first needed), for
    /// many callers at once.
    func trackingTables() -> any SharedTrackingTables
}
