extension OpenAPIDocument {
    /// The document for the snapshot and limits being served: `layer`, the services' `type`,
    /// `city` and `zone` list what the snapshot holds, and the batch body's length is the
    /// limit. Without a snapshot (still loading), the static document.
    public static func service(for data: ServiceData?, limits: ServiceLimits) -> OpenAPIDocument {
        guard let data else { return .service }
        return OpenAPIDocument(endpoints: EndpointDescription.all.map { $0.specialised(for: data, limits: limits) })
    }
}

extension EndpointDescription {
    /// This endpoint with the snapshot's names as enumerations.
    func specialised(for data: ServiceData, limits: ServiceLimits) -> EndpointDescription {
        var endpoint = self
        let polygonEndpoints = [EndpointDescription.sector.path, EndpointDescription.sectorBatch.path]
        for index in endpoint.parameters.indices {
            let names: [String]
            switch (endpoint.parameters[index].name, endpoint.path) {
            case ("layer", let path):
                names = data.servedLayers(kind: polygonEndpoints.contains(path) ? "polygon" : "point")
            case ("name", EndpointDescription.layerFeatures.path):
                names = data.layers.filter { $0.error == nil }.map(\.name)
            case ("collectionId", _): names = OGCCollection.all(in: data).map(\.id)
            case ("type", EndpointDescription.services.path): names = data.serviceLayers.map(\.type)
            case ("city", _): names = data.tariffs.keys.sorted()
            case ("zone", _): names = Array(Set(data.tariffs.values.flatMap { $0.zones.map(\.id) })).sorted()
            default: continue
            }
            if !names.isEmpty { endpoint.parameters[index].schema = .choice(names) }
        }
        if endpoint.requestBody != nil {
            endpoint.requestBody?.schemas["application/geo+json"] = .featureCollectionOfPoints(
                maxFeatures: limits.maxBatchPoints)
        }
        return endpoint
    }
}
