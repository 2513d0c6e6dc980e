"""PostGIS cutting the same tiles as geoq: ST_AsMVT over ST_AsMVTGeom of the layer's table in a
geoq store (S."<layer>", geometry in 4326, a GiST index), every tile of a list once, in one psql
session, as pg_tileserv and Martin ask it. Prints tiles a second.

    python3 benchmarks/tiles/postgis.py POSTGRES_URL SCHEMA LAYER TILES_FILE   (lines "z x y")
"""

import subprocess
import sys
import time

url, schema, layer, tiles_file = sys.argv[1:5]
tiles = [line.split() for line in open(tiles_file) if line.strip()]
table = f'{schema}."{layer}"'
# The tile's envelope with geoq's buffer (64 of 4096 units), the features transformed once per
# query, the attributes as tile values (every column but fid and geom), as ST_AsMVT's docs do.
query = (
    "SELECT length(ST_AsMVT(q, '{layer}', 4096, 'geom')) FROM ("
    " SELECT t.geoq_id AS id, t.geoq_name AS name,"
    " ST_AsMVTGeom(ST_Transform(t.geom, 3857), ST_TileEnvelope({z}, {x}, {y}), 4096, 64, true) AS geom"
    " FROM {table} t"
    " WHERE t.geom && ST_Transform(ST_TileEnvelope({z}, {x}, {y}, margin => 64.0 / 4096), 4326)) q;"
)
script = "".join(query.format(layer=layer, table=table, z=z, x=x, y=y) for z, x, y in tiles)
psql_url = url.split("?")[0]
# Once to warm the cache, then timed.
subprocess.run(["psql", "-qtA", psql_url], input=script, text=True, check=True, capture_output=True)
start = time.perf_counter()
subprocess.run(["psql", "-qtA", psql_url], input=script, text=True, check=True, capture_output=True)
print(f"{len(tiles) / (time.perf_counter() - start):.0f}")
