import GeoqLayers

/// A PostgreSQL/PostGIS database as geoq's shared store: the backend a face that links this
/// module puts behind a `postgresql://` (or `postgres://`) store address, handing
/// `PostGISBackend.self` to ``GeoqLayers/StoreAddress/init(parsing:sharedBackend:relativeTo:environment:)``.
///
/// The layers then reach the database through it alone: their layer tables through
/// ``PostGISLayerStore`` (one connection each time they are asked for), the tracking tables
/// through ``PostgresTracking`` (a pool of its own). Failures reach them as ``SharedStoreError``s.
public struct PostGISBackend: SharedStoreBackend {
    public let address: PostgresAddress

    public init(address: PostgresAddress) { self.address = address }

    /// Reads a `postgresql://` address as ``PostgresAddress/init(parsing:environment:)`` does; any
    /// other scheme is a bad address.
    public init(parsing address: String, environment: [String: String]) throws(SharedStoreError) {
        do throws(PostGISError) {
            self.address = try PostgresAddress(parsing: address, environment: environment)
        } catch {
            throw SharedStoreError(error)
        }
    }

    /// The address without its password.
    public var description: String { address.description }

    public func connectLayers() throws(SharedStoreError) -> any SharedLayerTables {
        do throws(PostGISError) {
            return PostGISSharedLayers(try PostGISLayerStore.connect(to: address))
        } catch {
            throw SharedStoreError(error)
        }
    }

    public func trackingTables() -> any SharedTrackingTables { PostgresTracking(address: address) }
}
