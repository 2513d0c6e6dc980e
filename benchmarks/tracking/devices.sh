#!/usr/bin/env bash
# On demand (not in the tests): resident memory of `geoq serve` (release) per tracked device on
# a fresh GeoPackage store, and that it stops growing at the tenant's cap: devices.py posts
# 1,000,000 distinct devices against --max-devices CAP, then idle devices that leave memory.
# Prints Markdown for docs/BENCHMARKS.md. Everything it starts is stopped on exit.
#
#   benchmarks/tracking/devices.sh [CAP, default 500000]
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/geoq-service.sh
cap="${1:-500000}"
idle=20
tools/ensure-dependencies.sh >&2
geoq="$(release_geoq)"
export GEOQ_DATA_DIR="${GEOQ_DATA_DIR:-../shared/data}"

work="$(mktemp -d)"
port=$(free_port)
store="$work/geoq.gpkg"
GEOQ_KEY="$("$geoq" keys add --tenant fleet --scope track --rate 100000 --store "$store" 2>/dev/null)"
GEOQ_IDLE_KEY="$("$geoq" keys add --tenant walkers --scope track --rate 100000 --store "$store" 2>/dev/null)"
export GEOQ_KEY GEOQ_IDLE_KEY
"$geoq" serve --port "$port" --store "$store" --max-devices "$cap" --idle-in-memory "${idle}s" \
    >"$work/serve.log" 2>&1 &
server=$!
trap 'kill -9 "$server" 2>/dev/null; rm -rf "$work"' EXIT
wait_until_ready "$port"
GEOQ_PID="$server" python3 benchmarks/tracking/devices.py "http://127.0.0.1:$port" "$cap" "$idle"
