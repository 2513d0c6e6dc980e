#!/usr/bin/env bash
# On demand (not in the tests): does `geoq serve` keep its throughput while 1,000 slow or idle
# clients hold connections open? wrk measures `GET /v1/sector` (wrk -t2 -c64) alone, then
# beside 1,000 connections held by benchmarks/load/hold-connections.py (a third silent, a
# third with half a request head, a third idle after one request), alternately, `rounds`
# times each. Prints a Markdown table for the README.
#
#   benchmarks/load/idle-clients.sh [seconds per run, default 10] [rounds, default 3]
#
# Release build, loopback only, default timeouts (60 s and 75 s: the held connections outlive
# each run). Installs wrk with apt if it is missing. Everything it starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/geoq-service.sh
duration="${1:-10}"
rounds="${2:-3}"
held=1000

if ! command -v wrk >/dev/null; then
    echo "load: installing wrk" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >&2
fi
geoq="$(release_geoq)"
[ -f "${GEOQ_STORE:-data/geoq.gpkg}" ] || "$geoq" import --all >&2

work="$(mktemp -d)"
port=18094
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

"$geoq" serve --port "$port" --metrics-host 127.0.0.1 2>"$work/geoq.log" &
pids+=($!)
wait_until_ready "$port"
url="http://127.0.0.1:$port/v1/sector?lat=42.81&lon=-1.64"

measure() {
    wrk -t2 -c64 -d"${duration}s" --latency "$url" >"$work/wrk.txt"
    if grep -q "Non-2xx\|Socket errors" "$work/wrk.txt"; then cat "$work/wrk.txt" >&2; fi
    local rps p99
    rps=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")
    echo "$rps|$p99"
}
open_connections() {
    curl -sf "http://127.0.0.1:$port/metrics" | awk '$1 == "geoq_connections_open" {print $2}'
}

echo "| round | alone req/s | alone p99 | beside $held held req/s | beside p99 | open connections during the run | beside / alone |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
sum_alone=0
sum_beside=0
for round in $(seq 1 "$rounds"); do
    IFS='|' read -r a_rps a_p99 <<<"$(measure)"
    python3 benchmarks/load/hold-connections.py "$port" "$held" $((duration + 5)) >"$work/hold.txt" &
    holder=$!
    pids+=("$holder")
    for _ in $(seq 1 300); do grep -q holding "$work/hold.txt" && break; sleep 0.1; done
    during=$(open_connections)
    IFS='|' read -r b_rps b_p99 <<<"$(measure)"
    wait "$holder" || true
    grep -q "closed by the server meanwhile: 0" "$work/hold.txt" || cat "$work/hold.txt" >&2
    echo "| $round | $a_rps | $a_p99 | $b_rps | $b_p99 | $during | $(awk -v a="$a_rps" -v b="$b_rps" 'BEGIN { printf "%.2f", b / a }') |"
    sum_alone=$(awk -v s="$sum_alone" -v a="$a_rps" 'BEGIN { print s + a }')
    sum_beside=$(awk -v s="$sum_beside" -v b="$b_rps" 'BEGIN { print s + b }')
done
echo
echo "Mean beside / alone: $(awk -v a="$sum_alone" -v b="$sum_beside" 'BEGIN { printf "%.2f", b / a }')" \
    "(wrk -t2 -c64 -d${duration}s, $rounds rounds, $(nproc) cores, loopback)."
