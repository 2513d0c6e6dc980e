"""What benchmarks/ogc/run.sh needs from a layer's GeoJSON (as `/v1/layers/{name}` answers it).

    python3 layer.py features URL FILE
        the collection's every feature, from geoq's own `/ogc/.../items` (longitude first, every
        property: `/v1/layers/{name}` has only the names, and the peers would answer less)
    python3 layer.py bbox FILE
        the query box: around the coordinate-wise median of the features' centres (where the
        features are densest, not the middle of an extent that an outlying feature stretches),
        a tenth of the layer's width and height on each side; W,S,E,N
    python3 layer.py pygeoapi CONFIG URL GPKG LAYER=FILE ...
        a pygeoapi configuration, one resource per layer: the OGR provider over the layer's table
        of the GeoPackage GPKG, or with GPKG `-` the GeoJSON provider over the file (the FILE
        gives the extent either way)
    python3 layer.py matched FILE [HITS_FILE]
        what an answer says to compare across servers: numberMatched of a collection (HITS_FILE's,
        the answer to `resulttype=hits`, when given) and the page's features counted, or a
        feature's name and first position (to five decimals: tipg rounds coordinates);
        `|`-separated
"""
import json
import statistics
import sys


def positions(geometry):
    def walk(c):
        if isinstance(c[0], (int, float)):
            yield c
        else:
            for part in c:
                yield from walk(part)
    if geometry is None:
        return
    if geometry["type"] == "GeometryCollection":
        for g in geometry["geometries"]:
            yield from positions(g)
    else:
        yield from walk(geometry["coordinates"])


def extent(features):
    xs, ys = [], []
    for f in features:
        for p in positions(f["geometry"]):
            xs.append(p[0])
            ys.append(p[1])
    return min(xs), min(ys), max(xs), max(ys)


def bbox(path):
    features = json.load(open(path))["features"]
    west, south, east, north = extent(features)
    centres = []
    for f in features:
        ps = list(positions(f["geometry"]))
        if ps:
            centres.append((sum(p[0] for p in ps) / len(ps), sum(p[1] for p in ps) / len(ps)))
    x = statistics.median(c[0] for c in centres)
    y = statistics.median(c[1] for c in centres)
    dx, dy = (east - west) / 10, (north - south) / 10
    print(f"{x - dx:.6f},{y - dy:.6f},{x + dx:.6f},{y + dy:.6f}")


def provider(gpkg, name, path):
    if gpkg == "-":
        # The file as geoq answers it; the GeoJSON provider reads it again at every request.
        return {"type": "feature", "name": "GeoJSON", "data": path, "id_field": "id"}
    # pygeoapi's GeoPackage provider through GDAL, as its documentation configures it. The table
    # has geoq's id as the column geoq_id beside the GeoPackage's key fid: naming geoq_id keeps
    # the answers' ids (and items/{id}) geoq's, where the default would give the fid.
    return {"type": "feature", "name": "OGR",
            "data": {"source_type": "GPKG", "source": gpkg},
            "id_field": "geoq_id", "layer": name}


def pygeoapi(config, url, gpkg, pairs):
    resources = {}
    for pair in pairs:
        name, path = pair.split("=", 1)
        west, south, east, north = extent(json.load(open(path))["features"])
        resources[name] = {
            "type": "collection",
            "title": name,
            "description": name,
            "keywords": [name],
            "links": [],
            "extents": {"spatial": {"bbox": [west, south, east, north],
                                    "crs": "http://www.opengis.net/def/crs/OGC/1.3/CRS84"}},
            "providers": [provider(gpkg, name, path)],
        }
    document = {
        "server": {
            "bind": {"host": "127.0.0.1", "port": 0},
            "url": url,
            "mimetype": "application/json; charset=UTF-8",
            "encoding": "utf-8",
            "gzip": False,
            "languages": ["en-US"],
            "pretty_print": False,
            # geoq's own bounds: 10 by default, up to 10,000 (pygeoapi's default maximum, 10,
            # would cut limit=100 short).
            "limits": {"default_items": 10, "max_items": 10000},
            "map": {"url": "https://tile.openstreetmap.org/{z}/{x}/{y}.png", "attribution": "OpenStreetMap"},
        },
        "logging": {"level": "ERROR"},
        "metadata": {
            "identification": {"title": "geoq benchmark", "description": "the layers geoq serves",
                               "keywords": ["geoq"], "url": url, "terms_of_service": url},
            "license": {"name": "CC-BY 4.0", "url": "https://creativecommons.org/licenses/by/4.0/"},
            "provider": {"name": "geoq", "url": url},
            "contact": {"name": "geoq", "role": "pointOfContact", "url": url},
        },
        "resources": resources,
    }
    # JSON is YAML: no YAML writer needed outside pygeoapi's own environment.
    with open(config, "w") as out:
        json.dump(document, out, indent=1)


def features(url, path):
    import urllib.request
    collection = json.load(urllib.request.urlopen(url))
    if collection["numberReturned"] != collection["numberMatched"]:
        sys.exit(f"{url}: {collection['numberMatched']} features, more than one page")
    with open(path, "w") as out:
        json.dump({"type": "FeatureCollection", "features": collection["features"]}, out)


def matched(path, hits_path=None):
    try:
        answer = json.load(open(path))
        hits = json.load(open(hits_path)) if hits_path else answer
    except (OSError, ValueError):
        print("unreadable|")
        return
    if answer.get("type") == "Feature":
        first = next(positions(answer.get("geometry")), None)
        where = f"{first[0]:.5f},{first[1]:.5f}" if first else "no geometry"
        properties = answer.get("properties") or {}
        # geoq answers its name as `name`; read from the GeoPackage, it is the column geoq_name.
        name = properties.get("name", properties.get("geoq_name"))
        print(f"{name} at {where}|")
    else:
        # The features counted, not numberReturned: pygeoapi 0.21 does not write it.
        print(f"{hits.get('numberMatched', 'absent')}|{len(answer.get('features') or [])}")


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "bbox":
        bbox(sys.argv[2])
    elif command == "pygeoapi":
        pygeoapi(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    elif command == "features":
        features(sys.argv[2], sys.argv[3])
    elif command == "matched":
        matched(*sys.argv[2:4])
    else:
        sys.exit(__doc__)
