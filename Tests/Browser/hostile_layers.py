"""Layers from a third party whose names and title are markup and script, for the map page test.

The polygons (few enough that the page labels each one permanently) and the points (labelled
when pointed at) lie west of Pamplona's centre, away from the points the test asks about. Their
names must show in the page as the characters they are, and none of them may run.

usage: hostile_layers.py GEOQ_BINARY STORE FOLDER
    writes the layers as GeoJSON files in FOLDER and imports them into STORE with `geoq import`.
"""

import json
import os
import subprocess
import sys

# Each would set window.__pwned if the page ever wrote it as markup.
POLYGON_NAMES = [
    '<img src=x onerror="window.__pwned=1">',
    "<script>window.__pwned=2</script>",
    '<b onmouseover="window.__pwned=3">bold</b> & <i>more</i>',
]
POINT_NAMES = [
    '<svg onload="window.__pwned=5"></svg>',
    "<iframe srcdoc=\"<script>parent.__pwned=6</script>\"></iframe>",
]
POLYGON_LAYER = "hostile-names"
POINT_LAYER = "hostile-points"
POLYGON_TITLE = '<img src=x onerror="window.__pwned=4">Hostile names'
POINT_TITLE = "Hostile points <script>window.__pwned=7</script>"


def square(west, south, size):
    ring = [[west, south], [west + size, south], [west + size, south + size], [west, south + size], [west, south]]
    return {"type": "Polygon", "coordinates": [ring]}


def collection(features):
    return {"type": "FeatureCollection", "features": features}


def write(folder):
    """The two layers' files in `folder`: (polygons, points)."""
    polygons = collection(
        [
            {"type": "Feature", "id": i + 1, "properties": {"name": name}, "geometry": square(-1.69 + 0.006 * i, 42.800, 0.004)}
            for i, name in enumerate(POLYGON_NAMES)
        ]
    )
    points = collection(
        [
            {
                "type": "Feature",
                "id": i + 1,
                "properties": {"name": name},
                "geometry": {"type": "Point", "coordinates": [-1.69 + 0.006 * i, 42.810]},
            }
            for i, name in enumerate(POINT_NAMES)
        ]
    )
    paths = (os.path.join(folder, "hostile-names.geojson"), os.path.join(folder, "hostile-points.geojson"))
    for path, layer in zip(paths, (polygons, points)):
        with open(path, "w", encoding="utf-8") as file:
            json.dump(layer, file, ensure_ascii=False)
    return paths


def main():
    binary, store, folder = sys.argv[1:4]
    polygons, points = write(folder)
    for path, layer, title in ((polygons, POLYGON_LAYER, POLYGON_TITLE), (points, POINT_LAYER, POINT_TITLE)):
        subprocess.run(
            [binary, "import", path, "--layer", layer, "--title", title, "--name-field", "name", "--store", store],
            check=True,
            stdout=subprocess.DEVNULL,
        )


if __name__ == "__main__":
    main()
