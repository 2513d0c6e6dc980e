#!/usr/bin/env bash
# On demand (not in the tests): OGC API - Features items over loopback with wrk, `geoq serve`
# (release build, under /ogc) beside the servers users run for the same API on the same layer:
#
# - pygeoapi under gunicorn (2 sync workers, as its docs deploy it), its OGR provider (GDAL's GPKG
#   driver) over the layer's table of geoq's own GeoPackage store (GEOQ_STORE, else data/geoq.gpkg),
#   so that both serve the same rows from the same file. Its SQLiteGPKG provider, the one its
#   docs name for GeoPackage, does not start on Debian 12: SpatiaLite 5.0.1's AutoGPKGStart()
#   makes no VirtualGPKG table (0, for GDAL's own GeoPackages too), and the provider writes the
#   table's name into SQL unquoted (every layer name with a hyphen is a syntax error).
#   GEOQ_BENCH_PYGEOAPI=geojson gives it the GeoJSON provider over the features as geoq answers
#   them instead (a file it parses again at every request), as the figures before were made;
# - tipg under uvicorn (2 workers), over the same GeoJSON imported into PostGIS with
#   `geoq import --store` (a private cluster of tools/postgres, in its own folder and port so that
#   the tests' cluster is never touched). GEOQ_BENCH_TIPG=0 leaves it out.
#
# Per layer three requests: the first page (`items?limit=10`), `items?limit=100&bbox=...` around
# the middle of the layer's features, and one item (`items/{id}`). Each server is asked each
# request once with curl first: a status other than 200, or a numberMatched (an item: its name and
# position) unlike geoq's, is a warning naming the server. Then wrk (2 threads, 16 connections,
# GEOQ_BENCH_SECONDS, default 10, per run), and the server's CPU time per request from
# /proc/PID/stat (tipg's with PostgreSQL's beside it: its queries run there). Prints Markdown
# tables for docs/BENCHMARKS.md, each geoq figure beside each peer's as a ratio.
#
#   benchmarks/ogc/run.sh [LAYER ...]     (default: valencia-barrios valencia-census-sections fallas)
#
# GEOQ_BIN=PATH uses that geoq (a release build) instead of building one. A store without one of
# the layers is left as it is: the catalog is imported into a store in the temporary folder,
# which geoq serves. pygeoapi and tipg go into .build-venv-ogc at the versions of
# benchmarks/ogc/requirements.txt, a venv of /usr/bin/python3 that sees the system's packages
# (GDAL's bindings). Installs wrk and python3-gdal with apt if missing. Everything it starts is
# stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/geoq-service.sh
layers=("$@")
[ ${#layers[@]} -gt 0 ] || layers=(valencia-barrios valencia-census-sections fallas)
duration="${GEOQ_BENCH_SECONDS:-10}"
with_tipg="${GEOQ_BENCH_TIPG:-1}"
[ "$with_tipg" = 0 ] && with_tipg=""
py_provider="${GEOQ_BENCH_PYGEOAPI:-gpkg}"
case "$py_provider" in
gpkg) py_label="pygeoapi (OGR, GeoPackage)" ;;
geojson) py_label="pygeoapi (GeoJSON)" ;;
*) echo "ogc: GEOQ_BENCH_PYGEOAPI is gpkg or geojson, not $py_provider" >&2; exit 64 ;;
esac
store="${GEOQ_STORE:-data/geoq.gpkg}"
if [[ "$store" == *://* ]]; then
    echo "ogc: GEOQ_STORE is a database ($store): pygeoapi reads geoq's layers from a GeoPackage file" >&2
    exit 64
fi

if ! command -v wrk >/dev/null; then
    echo "ogc: installing wrk" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >&2
fi
if ! /usr/bin/python3 -c 'import ensurepip' 2>/dev/null; then
    echo "ogc: installing python3-venv" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
fi
# pygeoapi's OGR provider imports GDAL's Python bindings: Debian's, built for its libgdal.
if ! /usr/bin/python3 -c 'from osgeo import ogr' 2>/dev/null; then
    echo "ogc: installing python3-gdal" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-gdal >&2
fi
tools/ensure-dependencies.sh >&2
geoq="${GEOQ_BIN:-$(release_geoq)}"
[ -f "$store" ] || "$geoq" import --all >&2

# The peers' environment, made again only when the pinned versions change. GDAL's bindings are
# the system's (pip's GDAL would be built from source, and must match libgdal anyway), so the venv
# is of /usr/bin/python3 and sees its packages; the pinned ones, installed into it, come first.
venv=.build-venv-ogc
requirements=benchmarks/ogc/requirements.txt
if ! grep -qx 'include-system-site-packages = true' "$venv/pyvenv.cfg" 2>/dev/null ||
    ! grep -qx 'home = /usr/bin' "$venv/pyvenv.cfg"; then
    echo "ogc: making $venv (of /usr/bin/python3, with the system's packages)" >&2
    /usr/bin/python3 -m venv --clear --system-site-packages "$venv"
fi
if ! cmp -s "$requirements" "$venv/requirements.txt"; then
    echo "ogc: installing pygeoapi and tipg into $venv" >&2
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements" >&2
    cp "$requirements" "$venv/requirements.txt"
fi

work="$(mktemp -d)"
pids=()
# A library other than the one the bindings were built for fails at odd places, not at import.
gdal_versions=$("$venv/bin/python" -c 'from osgeo import gdal; print(gdal.__version__, gdal.VersionInfo("RELEASE_NAME"))')
read -r gdal_bindings gdal_library <<<"$gdal_versions"
[ "$gdal_bindings" = "$gdal_library" ] ||
    echo "ogc: warning: GDAL's Python bindings are $gdal_bindings, its library $gdal_library" >&2
pg_started=""
schema=bench_ogc
pg_url=""
# A cluster of its own: tools/test starts and stops the default one while it runs.
export GEOQ_PG_DIR="$PWD/.build-postgres-ogc" GEOQ_PG_PORT="${GEOQ_BENCH_PG_PORT:-25433}"
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    if [ -n "$pg_url" ]; then
        PGPASSWORD=geoq psql -X -q -d "$pg_url" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true
    fi
    [ -n "$pg_started" ] && tools/postgres stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
progress() { [ -t 2 ] && printf 'ogc: %s\n' "$1" >&2 || true; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "—"; else printf "%.2f", a / b }'; }

# Waits until URL answers 2xx (at most a minute); returns either way: the checks show a server
# that never came up.
wait_for() {
    for _ in $(seq 1 120); do
        curl -sf -o /dev/null "$1" && return 0
        sleep 0.5
    done
    return 0
}

# Both serve the layers from the same GeoPackage: every requested layer must be in the store,
# else the catalog goes into a store of this run's own (a store that is there is not rewritten).
for layer in "${layers[@]}"; do
    if [ "$(sqlite3 -readonly "$store" "SELECT count(*) FROM gpkg_contents WHERE table_name = '$layer'" 2>/dev/null)" != 1 ]; then
        echo "ogc: layer $layer is not in $store: importing the catalog into $work/geoq.gpkg" >&2
        store="$work/geoq.gpkg"
        "$geoq" import --all --store "$store" >"$work/store-import.log" 2>&1 ||
            { cat "$work/store-import.log" >&2; exit 1; }
        break
    fi
done
export GEOQ_STORE="$store"
# pygeoapi reads a copy made before geoq opens the store: `geoq serve` turns the file to a
# write-ahead log and writes its tracking tables there, and the peer's reads should neither wait
# for nor slow the service being measured after it. The copy has the same pages (SQLite's backup).
py_gpkg=-
if [ "$py_provider" = gpkg ]; then
    py_gpkg="$work/pygeoapi.gpkg"
    sqlite3 -readonly "$store" ".backup '$py_gpkg'"
fi

geoq_port=$(free_port)
"$geoq" serve --port "$geoq_port" 2>"$work/geoq.log" &
pids+=($!)
geoq_pid=$!
wait_until_ready "$geoq_port"
geoq_base="http://127.0.0.1:$geoq_port/ogc"

pairs=()
for layer in "${layers[@]}"; do
    python3 benchmarks/ogc/layer.py features "$geoq_base/collections/$layer/items?limit=10000&f=json" "$work/$layer.geojson" ||
        { echo "ogc: no features of layer $layer from geoq" >&2; exit 1; }
    pairs+=("$layer=$work/$layer.geojson")
done

progress "starting pygeoapi"
py_port=$(free_port)
export PYGEOAPI_CONFIG="$work/pygeoapi.yml" PYGEOAPI_OPENAPI="$work/pygeoapi-openapi.yml"
"$venv/bin/python" benchmarks/ogc/layer.py pygeoapi "$PYGEOAPI_CONFIG" "http://127.0.0.1:$py_port" "$py_gpkg" "${pairs[@]}"
"$venv/bin/pygeoapi" openapi generate "$PYGEOAPI_CONFIG" --output-file "$PYGEOAPI_OPENAPI" >"$work/pygeoapi-openapi.log" 2>&1 ||
    { cat "$work/pygeoapi-openapi.log" >&2; exit 1; }
"$venv/bin/gunicorn" --workers 2 --bind "127.0.0.1:$py_port" --log-level warning \
    pygeoapi.flask_app:APP 2>"$work/pygeoapi.log" &
pids+=($!)
py_pid=$!
py_base="http://127.0.0.1:$py_port"
wait_for "$py_base/conformance?f=json"

tipg_base=""
pg_pid=""
if [ -n "$with_tipg" ]; then
    progress "starting PostgreSQL and tipg"
    tools/postgres status >/dev/null 2>&1 || pg_started=yes
    if pg_url=$(tools/postgres start 2>"$work/postgres.log"); then
        pg_pid=$(head -1 "$GEOQ_PG_DIR/data/postmaster.pid")
        for layer in "${layers[@]}"; do
            "$geoq" import "$work/$layer.geojson" --layer "$layer" --store "$pg_url?schema=$schema" >/dev/null 2>"$work/import.log" ||
                { cat "$work/import.log" >&2; exit 1; }
        done
        tipg_port=$(free_port)
        # tipg lists the tables of the schema when it starts: after the imports.
        DATABASE_URL="$pg_url" TIPG_DB_SCHEMAS="[\"$schema\"]" "$venv/bin/uvicorn" tipg.main:app \
            --host 127.0.0.1 --port "$tipg_port" --workers 2 --no-access-log --log-level warning 2>"$work/tipg.log" &
        pids+=($!)
        tipg_pid=$!
        tipg_base="http://127.0.0.1:$tipg_port"
        wait_for "$tipg_base/healthz"
    else
        echo "ogc: no PostgreSQL for tipg, left out: $(tail -1 "$work/postgres.log")" >&2
        pg_started=""
        pg_url=""
    fi
fi

# The CPU time (user and system, in clock ticks) the processes given have used so far; one
# gone since is left out.
total_cpu_ticks() {
    local pid
    for pid in "$@"; do [ -r "/proc/$pid/stat" ] && cpu_ticks "$pid"; done | awk '{ s += $1 + $2 } END { print s + 0 }'
}
# A process and its children (gunicorn's and uvicorn's workers, PostgreSQL's backends).
with_children() { [ -z "$1" ] || echo "$1" $(pgrep -P "$1"); }

# One wrk run: requests/s, p50 and p99 latency, the server's CPU µs per request, and with a third
# argument (more pids: PostgreSQL's) their CPU µs per request.
measure() {
    local url=$1 ticks extra_ticks=0 n
    ticks=$(total_cpu_ticks $2)
    [ -n "${3:-}" ] && extra_ticks=$(total_cpu_ticks $3)
    wrk -t2 -c16 -d"${duration}s" --latency "$url" >"$work/wrk.txt"
    ticks=$(($(total_cpu_ticks $2) - ticks))
    [ -n "${3:-}" ] && extra_ticks=$(($(total_cpu_ticks $3) - extra_ticks))
    n=$(awk '/requests in/ { print $1 }' "$work/wrk.txt")
    if grep -q "Non-2xx" "$work/wrk.txt"; then echo "ogc: non-2xx answers from $url" >&2; cat "$work/wrk.txt" >&2; fi
    awk -v t="$ticks" -v x="$extra_ticks" -v hz="$(getconf CLK_TCK)" -v n="$n" \
        -v rps="$(awk '/Requests\/sec/ { print $2 }' "$work/wrk.txt")" \
        -v p50="$(awk '$1 == "50%" { print $2 }' "$work/wrk.txt")" \
        -v p99="$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")" \
        'BEGIN { printf "%s|%s|%s|%.0f|%.0f\n", rps, p50, p99, t * 1e6 / hz / n, x * 1e6 / hz / n }'
}

# Asks URL once as wrk does (no Accept header); prints "status|numberMatched or the feature|
# features in the page|bytes". pygeoapi's OGR provider counts only when asked for the count alone:
# a page without numberMatched takes it from the same query with resulttype=hits.
check() {
    local status hits=""
    status=$(curl -s -H 'Accept:' -o "$work/answer.json" -w '%{http_code}' "$1" || true)
    if [[ "$1" == */items\?* ]] && ! grep -q '"numberMatched"' "$work/answer.json"; then
        curl -s -H 'Accept:' -o "$work/hits.json" "$1&resulttype=hits" || true
        hits="$work/hits.json"
    fi
    echo "$status|$("$venv/bin/python" benchmarks/ogc/layer.py matched "$work/answer.json" $hits)|$(stat -c %s "$work/answer.json")"
}

peers="pygeoapi${tipg_base:+ tipg}"
rows="$work/rows.txt"
cpu_rows="$work/cpu-rows.txt"
: >"$rows"
: >"$cpu_rows"
for layer in "${layers[@]}"; do
    bbox=$("$venv/bin/python" benchmarks/ogc/layer.py bbox "$work/$layer.geojson")
    # The middle feature of the file. pygeoapi's ids are geoq's (its id_field is the GeoPackage's
    # geoq_id column; with the GeoJSON provider, the file's ids, looked up in file order). tipg's
    # are its table's key, fid, the order `geoq import` stored the file in.
    position=$("$venv/bin/python" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["features"]) // 2)' "$work/$layer.geojson")
    id=$("$venv/bin/python" -c 'import json, sys, urllib.parse
print(urllib.parse.quote(str(json.load(open(sys.argv[1]))["features"][int(sys.argv[2])]["id"]), safe=""))' "$work/$layer.geojson" "$position")
    tipg_id=$((position + 1))
    for request in first bbox item; do
        case "$request" in
        first) query="items?limit=10" label="items?limit=10" ;;
        bbox) query="items?limit=100&bbox=$bbox" label="items?limit=100&bbox (middle)" ;;
        item) query="items/$id" label="items/{id}" ;;
        esac
        declare -A url=([geoq]="$geoq_base/collections/$layer/$query" [pygeoapi]="$py_base/collections/$layer/$query")
        if [ -n "$tipg_base" ]; then
            url[tipg]="$tipg_base/collections/$schema.$layer/$query"
            [ "$request" = item ] && url[tipg]="$tipg_base/collections/$schema.$layer/items/$tipg_id"
        fi
        declare -A matched=() returned=() bytes=() ok=()
        for server in geoq $peers; do
            IFS='|' read -r status matched[$server] returned[$server] bytes[$server] <<<"$(check "${url[$server]}")"
            ok[$server]=yes
            if [ "$status" != 200 ]; then
                echo "ogc: warning: $server answers $status to $layer $label (${url[$server]})" >&2
                ok[$server]=""
            elif [ "${matched[$server]}" != "${matched[geoq]}" ]; then
                echo "ogc: warning: $layer $label: $server matches ${matched[$server]}, geoq ${matched[geoq]}" >&2
            elif [ "${returned[$server]}" != "${returned[geoq]}" ]; then
                echo "ogc: warning: $layer $label: $server returns ${returned[$server]} features, geoq ${returned[geoq]}" >&2
            fi
        done
        declare -A rps=() p99=() cpu=() pg_cpu=()
        for server in geoq $peers; do
            [ -n "${ok[$server]}" ] || { rps[$server]=""; p99[$server]="—"; cpu[$server]=""; continue; }
            progress "$layer, $label, $server"
            case "$server" in
            geoq) server_pids="$geoq_pid" extra="" ;;
            pygeoapi) server_pids="$(with_children "$py_pid")" extra="" ;;
            tipg) server_pids="$(with_children "$tipg_pid")" extra="$(with_children "$pg_pid")" ;;
            esac
            IFS='|' read -r rps[$server] _ p99[$server] cpu[$server] pg_cpu[$server] <<<"$(measure "${url[$server]}" "$server_pids" "$extra")"
        done
        what="${matched[geoq]} matched"
        [ "$request" = item ] && what="id $id"
        row="| $layer | $label | $what | ${rps[geoq]:-—} | ${p99[geoq]}"
        cpu_row="| $layer | $label | ${bytes[geoq]} | ${cpu[geoq]:-—}"
        for server in $peers; do
            row+=" | ${rps[$server]:-—} | ${p99[$server]} | $(ratio "${rps[geoq]}" "${rps[$server]}")"
            if [ "$server" = tipg ] && [ -n "${cpu[tipg]}" ]; then
                total=$((cpu[tipg] + pg_cpu[tipg]))
                cpu_row+=" | ${bytes[$server]} | ${cpu[tipg]} + ${pg_cpu[tipg]} | $(ratio "$total" "${cpu[geoq]}")"
            else
                cpu_row+=" | ${bytes[$server]} | ${cpu[$server]:-—} | $(ratio "${cpu[$server]}" "${cpu[geoq]}")"
            fi
        done
        echo "$row |" >>"$rows"
        echo "$cpu_row |" >>"$cpu_rows"
        unset url matched returned bytes ok rps p99 cpu pg_cpu
    done
done

head="| layer | request | geoq's answer | geoq req/s | geoq p99"
rule="|---|---|---|---:|---:"
cpu_head="| layer | request | geoq bytes | geoq CPU µs/req"
cpu_rule="|---|---|---:|---:"
for server in $peers; do
    # The table names pygeoapi's provider: its figures depend on it more than on pygeoapi.
    name=$server
    [ "$server" = pygeoapi ] && name=$py_label
    head+=" | $name req/s | $name p99 | geoq / $server"
    rule+="|---:|---:|---:"
    if [ "$server" = tipg ]; then
        cpu_head+=" | tipg bytes | tipg + PostgreSQL CPU µs/req | tipg / geoq CPU"
    else
        cpu_head+=" | $name bytes | $name CPU µs/req | $server / geoq CPU"
    fi
    cpu_rule+="|---:|---:|---:"
done
echo "Requests per second and p99 latency (wrk -t2 -c16, ${duration} s per run):"
echo
echo "$head |"
echo "$rule|"
cat "$rows"
echo
echo "Bytes per answer and the server's CPU time per request (user and system, every process of the server):"
echo
echo "$cpu_head |"
echo "$cpu_rule|"
cat "$cpu_rows"
echo
version() { "$venv/bin/python" -c 'import importlib.metadata, sys; print(importlib.metadata.version(sys.argv[1]))' "$1"; }
if [ "$py_provider" = gpkg ]; then
    py_source="OGR provider over a copy of geoq's GeoPackage, GDAL $gdal_library, Python bindings $gdal_bindings"
else
    py_source="GeoJSON provider over the features as geoq answers them"
fi
versions="pygeoapi $(version pygeoapi) ($py_source; gunicorn $(version gunicorn), 2 sync workers)"
if [ -n "$tipg_base" ]; then
    versions+=", tipg $(version tipg) (uvicorn $(version uvicorn), 2 workers; PostgreSQL $(PGPASSWORD=geoq psql -X -tA -d "$pg_url" -c 'SHOW server_version' | awk '{ print $1 }'), PostGIS $(PGPASSWORD=geoq psql -X -tA -d "$pg_url" -c 'SELECT postgis_lib_version()'))"
fi
echo "Loopback, $(nproc) cores; geoq with one thread per core; $versions."
