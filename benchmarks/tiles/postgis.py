"""PostGIS cutting the same tiles as geoq: ST_AsMVT over ST_AsMVTGeom of the layer's table in a
geoq store (S."<layer>", geometry in 4326, a GiST index), every tile of a list once, in one psql
connection, as pg_tileserv and Martin ask it. Prints tiles a second, then the median and the 99th
percentile of a tile's time in milliseconds (psql's own timing of each statement).

    python3 benchmarks/tiles/postgis.py POSTGRES_URL SCHEMA LAYER TILES_FILE   (lines "z x y")
"""

import re
import subprocess
import sys

url, schema, layer, tiles_file = sys.argv[1:5]
tiles = [line.split() for line in open(tiles_file) if line.strip()]
table = f'{schema}."{layer}"'
# The tile's envelope with geoq's buffer (64 of 4096 units), the features transformed once per
# query, the id and name as tile values, as ST_AsMVT's documentation writes it.
query = (
    "SELECT length(ST_AsMVT(q, '{layer}', 4096, 'geom')) FROM ("
    " SELECT t.geoq_id AS id, t.geoq_name AS name,"
    " ST_AsMVTGeom(ST_Transform(t.geom, 3857), ST_TileEnvelope({z}, {x}, {y}), 4096, 64, true) AS geom"
    " FROM {table} t"
    " WHERE t.geom && ST_Transform(ST_TileEnvelope({z}, {x}, {y}, margin => 64.0 / 4096), 4326)) q;\n"
)
script = "\\timing on\n" + "".join(query.format(layer=layer, table=table, z=z, x=x, y=y) for z, x, y in tiles)
psql_url = url.split("?")[0]
# Once to warm the cache, then timed.
subprocess.run(["psql", "-qtA", psql_url], input=script, text=True, check=True, capture_output=True)
run = subprocess.run(["psql", "-qtA", psql_url], input=script, text=True, check=True, capture_output=True)
times = sorted(float(ms) for ms in re.findall(r"^Time: ([0-9.]+) ms", run.stdout, re.M))
assert len(times) == len(tiles), f"{len(times)} timings for {len(tiles)} tiles"
median, p99 = times[len(times) // 2], times[min(len(times) - 1, len(times) * 99 // 100)]
print(f"{len(times) / (sum(times) / 1000):.0f} {median:.3f} {p99:.3f}")
