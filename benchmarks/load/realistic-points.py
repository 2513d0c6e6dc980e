#!/usr/bin/env python3
"""The request targets of the realistic HTTP load (benchmarks/load/run.sh --realistic).

Points as real clients send them: spread over the catalog's polygon layers of Pamplona and
Valencia (each point asks about one layer, chosen at random), about a third inside a feature
of its layer and two thirds outside it (near the layer: in its box grown by half its size on
every side), with six decimals as a phone's GPS gives them. Reproducible: the same seed and the
same data give the same files.

A running `geoq serve` is asked for the layers (`/v1/layers`, `/v1/layers/NAME` for their
boxes) and says whether each drawn point is inside (`/v1/sector`), so that the inside and
outside shares are what was drawn, not an estimate.

Writes into OUT:
- points.csv: layer, latitude, longitude, inside (1 or 0), in the order drawn;
- sector.txt: one `/v1/sector?lat=..&lon=..&layer=..` target per line;
- park.txt: one `/v1/park?lat=..&lon=..[&zone=..&minutes=..|&euros=..]` target per line, over
  the Pamplona sectors (the layer `/v1/park` reads), with the zone and ticket a driver asks
  for: blue, orange or red with minutes or euros, or no zone at all (what may I do here?).

    realistic-points.py --server http://127.0.0.1:18090 --seed 20261125 --out DIR
"""

import argparse
import http.client
import json
import random
import sys
import urllib.parse


class Geoq:
    """A keep-alive connection to the service."""

    def __init__(self, server):
        url = urllib.parse.urlsplit(server)
        self.connection = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=30)

    def get(self, target):
        self.connection.request("GET", target)
        response = self.connection.getresponse()
        body = response.read()
        if response.status != 200:
            sys.exit(f"realistic-points: {target} answered {response.status}: {body[:200]!r}")
        return json.loads(body)

    def inside(self, layer, latitude, longitude):
        query = urllib.parse.urlencode({"lat": latitude, "lon": longitude, "layer": layer})
        return len(self.get(f"/v1/sector?{query}")["inside"]) > 0


def feature_boxes(collection):
    """Each feature's box as (west, south, east, north), from its GeoJSON rings."""
    boxes = []
    for feature in collection["features"]:
        geometry = feature["geometry"]
        polygons = geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
        xs = [x for polygon in polygons for ring in polygon for x, _ in ring]
        ys = [y for polygon in polygons for ring in polygon for _, y in ring]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


def draw(rng, geoq, layer, boxes, inside):
    """A point of `layer` with six decimals, inside a feature or outside every one as asked."""
    west = min(b[0] for b in boxes)
    south = min(b[1] for b in boxes)
    east = max(b[2] for b in boxes)
    north = max(b[3] for b in boxes)
    width, height = east - west, north - south
    for _ in range(10_000):
        if inside:
            # In a random feature's box: most such points are inside it, even for small
            # features far apart (the Fallas' tents).
            w, s, e, n = rng.choice(boxes)
        else:
            w, s, e, n = west - width / 2, south - height / 2, east + width / 2, north + height / 2
        latitude = round(rng.uniform(s, n), 6)
        longitude = round(rng.uniform(w, e), 6)
        if geoq.inside(layer, latitude, longitude) == inside:
            return latitude, longitude
    sys.exit(f"realistic-points: no point {'inside' if inside else 'outside'} {layer} in 10,000 draws")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="a running geoq serve, e.g. http://127.0.0.1:18090")
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--sector-points", type=int, default=2000)
    parser.add_argument("--park-points", type=int, default=1000)
    parser.add_argument("--inside", type=float, default=1 / 3, help="the share of points inside their layer")
    parser.add_argument("--out", required=True, help="the folder to write into")
    options = parser.parse_args()

    geoq = Geoq(options.server)
    rng = random.Random(options.seed)
    names = sorted(
        layer["name"]
        for layer in geoq.get("/v1/layers")["layers"]
        if layer["kind"] == "polygon" and layer["name"].startswith(("pamplona-", "valencia-", "fallas-"))
    )
    boxes = {name: feature_boxes(geoq.get(f"/v1/layers/{name}")) for name in names}

    points = []
    for _ in range(options.sector_points):
        layer = rng.choice(names)
        inside = rng.random() < options.inside
        points.append((layer, *draw(rng, geoq, layer, boxes[layer], inside), inside))

    park = []
    for _ in range(options.park_points):
        inside = rng.random() < options.inside
        latitude, longitude = draw(rng, geoq, "pamplona-sectors", boxes["pamplona-sectors"], inside)
        parameters = {"lat": latitude, "lon": longitude}
        ask = rng.random()
        if ask < 0.8:
            zone = rng.choice(["blue", "orange", "red"])
            parameters["zone"] = zone
            if ask < 0.6:
                parameters["minutes"] = rng.randint(10, 570 if zone == "orange" else 120)
            else:
                top = 435 if zone == "orange" else 210
                parameters["euros"] = f"{rng.randint(5, top // 5) * 5 / 100:.2f}"
        park.append(f"/v1/park?{urllib.parse.urlencode(parameters)}")

    with open(f"{options.out}/points.csv", "w") as file:
        file.write("layer,latitude,longitude,inside\n")
        for layer, latitude, longitude, inside in points:
            file.write(f"{layer},{latitude},{longitude},{int(inside)}\n")
    with open(f"{options.out}/sector.txt", "w") as file:
        for layer, latitude, longitude, _ in points:
            file.write(f"/v1/sector?{urllib.parse.urlencode({'lat': latitude, 'lon': longitude, 'layer': layer})}\n")
    with open(f"{options.out}/park.txt", "w") as file:
        file.write("".join(target + "\n" for target in park))
    inside_count = sum(1 for point in points if point[3])
    print(
        f"realistic-points: seed {options.seed}: {len(points)} sector points over {len(names)} layers "
        f"({inside_count} inside their layer, {len(points) - inside_count} outside), {len(park)} park requests",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
