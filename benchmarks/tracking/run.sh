#!/usr/bin/env bash
# On demand (not in the tests): arrival events over HTTP on loopback. `geoq serve` (release) on
# a fresh store in a temporary folder, a webhook receiver (measure.py) on another port, then
#  - fixes per second through POST /v1/fixes: 10,000 devices on random walks in the Pamplona
#    sectors' box, NDJSON batches of 1,000 fixes, one connection;
#  - fix-to-webhook latency: new devices' second fix, 5 s after the first (an enter needs a run
#    of fixes), timed from its request to the webhook's arrival at the receiver, p50 / p99.
# Prints Markdown for docs/BENCHMARKS.md. Everything it starts is stopped on exit.
#
#   benchmarks/tracking/run.sh [STORE]
#
# STORE: a PostgreSQL address (postgresql://...?schema=NAME, an empty or new schema) to measure
# the shared store's row-locked path instead of a GeoPackage; its layers are imported first.
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/ensure-dependencies.sh >&2
swift build -c release --product geoq >&2
geoq="$(swift build -c release --show-bin-path)/geoq"
export GEOQ_DATA_DIR="${GEOQ_DATA_DIR:-../shared/data}"

work="$(mktemp -d)"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
store="${1:-$work/geoq.gpkg}"
case "$store" in
postgresql://* | postgres://*) "$geoq" import --all --store "$store" >/dev/null ;;
esac
key="$("$geoq" keys add --tenant bench --scope track --scope hooks --store "$store" 2>/dev/null)"
"$geoq" serve --port "$port" --store "$store" --hook-allow-http --hook-allow 127.0.0.0/8 >"$work/serve.log" 2>&1 &
server=$!
trap 'kill -9 "$server" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    sleep 0.5
done
GEOQ_KEY="$key" python3 benchmarks/tracking/measure.py "http://127.0.0.1:$port"
