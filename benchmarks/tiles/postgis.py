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
psql_url = url.split("?")[0]
# Every property column, as geoq's tiles carry every property.
columns = subprocess.run(
    ["psql", "-qtA", psql_url, "-c",
     f"SELECT column_name FROM information_schema.columns WHERE table_schema = '{schema}' AND table_name = '{layer}'"
     " AND column_name NOT IN ('fid', 'geom', 'geoq_id', 'geoq_name') ORDER BY ordinal_position"],
    text=True, check=True, capture_output=True).stdout.split("\n")
properties = "".join(f' t."{c}",' for c in columns if c)
# The tile's envelope with geoq's buffer (64 of 4096 units), the features transformed once per
# query, the id, name and every property as tile values, as ST_AsMVT's documentation writes it.
query = (
    "SELECT length(ST_AsMVT(q, '{layer}', 4096, 'geom')) FROM ("
    " SELECT t.geoq_id AS id, t.geoq_name AS name," + properties.replace("{", "{{").replace("}", "}}") +
    " ST_AsMVTGeom(ST_Transform(t.geom, 3857), ST_TileEnvelope({z}, {x}, {y}), 4096, 64, true) AS geom"
    " FROM {table} t"
    " WHERE t.geom && ST_Transform(ST_TileEnvelope({z}, {x}, {y}, margin => 64.0 / 4096), 4326)) q;\n"
)
script = "\\timing on\n" + "".join(query.format(layer=layer, table=table, z=z, x=x, y=y) for z, x, y in tiles)
# The first tiles once to warm the cache, then every tile timed.
warm = "".join(query.format(layer=layer, table=table, z=z, x=x, y=y) for z, x, y in tiles[:50])
subprocess.run(["psql", "-qtA", psql_url], input=warm, text=True, check=True, capture_output=True)
run = subprocess.run(["psql", "-qtA", psql_url], input=script, text=True, check=True, capture_output=True)
times = sorted(float(ms) for ms in re.findall(r"^Time: ([0-9.]+) ms", run.stdout, re.M))
assert len(times) == len(tiles), f"{len(times)} timings for {len(tiles)} tiles"
median, p99 = times[len(times) // 2], times[min(len(times) - 1, len(times) * 99 // 100)]
print(f"{len(times) / (sum(times) / 1000):.0f} {median:.3f} {p99:.3f}")
