#!/usr/bin/env bash
# On demand (not in the tests): arrival events over HTTP on loopback. `geoq serve` (release) on
# a fresh store in a temporary folder, a webhook receiver (measure.py) on another port, then
#  - fixes per second through POST /v1/fixes: 10,000 devices on random walks in the Pamplona
#    sectors' box, NDJSON batches of 1,000 fixes, one connection;
#  - fix-to-webhook latency: new devices' second fix, 5 s after the first (an enter needs a run
#    of fixes), timed from its request to the webhook's arrival at the receiver, p50 / p99; and
#    the same through a Redis stream (a private redis-server on loopback, read with XREAD BLOCK);
#  - a city's fleet (fleet.py, sent by wrk): 100,000 devices, NDJSON batches of 1,000, then of 250, over 16
#    connections at once for 20 s, each on a fresh service: fixes per second, the batch latency
#    (p50 / p99) and the service's CPU per fix;
#  - and beside them, from the same build and machine, the engine in process
#    (`geoq-bench --only tracking`), the peer of every HTTP figure.
# Prints Markdown for docs/BENCHMARKS.md. Everything it starts is stopped on exit.
#
#   benchmarks/tracking/run.sh [STORE]
#
# STORE: a PostgreSQL address (postgresql://...?schema=NAME, an empty or new schema) to measure
# the shared store's row-locked path instead of a GeoPackage; its layers are imported first.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/geoq-service.sh
tools/ensure-dependencies.sh --tests >&2
geoq="$(release_geoq)"
export GEOQ_DATA_DIR="${GEOQ_DATA_DIR:-../shared/data}"

work="$(mktemp -d)"
port=$(free_port)
store="${1:-$work/geoq.gpkg}"
case "$store" in
postgresql://* | postgres://*) "$geoq" import --all --store "$store" >/dev/null ;;
esac
key="$("$geoq" keys add --tenant bench --scope track --scope hooks --store "$store" 2>/dev/null)"
redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$work" --save "" --appendonly no >/dev/null &
redis=$!
"$geoq" serve --port "$port" --store "$store" --hook-allow-http --hook-allow-redis --hook-allow 127.0.0.0/8 \
    >"$work/serve.log" 2>&1 &
server=$!
# The fleets' schemas are this script's own, dropped on exit (the measures' schema is the
# caller's): an evening of runs left dozens of imported stores in the cluster.
fleet_schemas=()
drop_fleet_schemas() {
    local schema
    for schema in "${fleet_schemas[@]}"; do
        psql -X -q "${store%%\?*}" -c "DROP SCHEMA IF EXISTS \"$schema\" CASCADE" >/dev/null 2>&1 || true
    done
}
trap 'kill -9 "$server" "$redis" 2>/dev/null; drop_fleet_schemas; rm -rf "$work"' EXIT
wait_until_ready "$port"
GEOQ_KEY="$key" GEOQ_REDIS_PORT="$redis_port" python3 benchmarks/tracking/measure.py "http://127.0.0.1:$port"
kill -9 "$server"

# CPU ticks of the PostgreSQL server listening on PORT on this machine: its postmaster's own and
# those of the children it has reaped, plus each live child's (a backend's); empty when no local
# server listens there (a store elsewhere).
postgres_ticks() {
    local postmaster total child u s
    postmaster=$(ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
    [ -n "$postmaster" ] || return 0
    total=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$postmaster/stat")
    for child in $(pgrep -P "$postmaster"); do
        read -r u s <<<"$(cpu_ticks "$child" 2>/dev/null || echo 0 0)"
        total=$((total + u + s))
    done
    echo "$total"
}
postgres_port=""
case "$store" in
postgresql://* | postgres://*) [[ "$store" =~ @[^/:]+:([0-9]+)/ ]] && postgres_port="${BASH_REMATCH[1]}" ;;
esac

# The fleet, on a service of its own over a fresh store (of the same kind), in batches of 1,000
# (a gateway's throughput) and of 250 (its latency: with 16 batches of 1,000 in flight, a mean
# under 50 ms would need 320,000 fixes/s, Little's law).
for batch in 1000 250; do
    fleet_store="$work/fleet-$batch.gpkg"
    case "$store" in
    postgresql://* | postgres://*)
        fleet_store="${store}_fleet_$batch"
        [[ "$fleet_store" =~ schema=([^\&]+)$ ]] && fleet_schemas+=("${BASH_REMATCH[1]}")
        "$geoq" import --all --store "$fleet_store" >/dev/null
        ;;
    esac
    fleet_key="$("$geoq" keys add --tenant fleet --scope track --store "$fleet_store" 2>/dev/null)"
    "$geoq" serve --port "$port" --store "$fleet_store" >"$work/fleet.log" 2>&1 &
    server=$!
    wait_until_ready "$port"
    read -r user_before system_before <<<"$(cpu_ticks "$server")"
    postgres_before=$([ -n "$postgres_port" ] && postgres_ticks "$postgres_port" || true)
    fleet="$(GEOQ_KEY="$fleet_key" python3 benchmarks/tracking/fleet.py "http://127.0.0.1:$port" 100000 16 "$batch" 20)"
    read -r user_after system_after <<<"$(cpu_ticks "$server")"
    postgres_after=$([ -n "$postgres_port" ] && postgres_ticks "$postgres_port" || true)
    kill -9 "$server"
    cpu=$(((user_after - user_before) + (system_after - system_before)))
    postgres_cpu=""
    [ -n "$postgres_before" ] && [ -n "$postgres_after" ] && postgres_cpu=$((postgres_after - postgres_before))
    python3 - "$fleet" "$cpu" "$(getconf CLK_TCK)" "$postgres_cpu" <<'PY'
import json, sys
f = json.loads(sys.argv[1])
cpu = int(sys.argv[2]) / int(sys.argv[3])
print(f"| a fleet: {f['devices']:,} devices, batches of {f['batch']:,}, {f['connections']} connections at once ({f['seconds']} s) | {f['fixes_per_second']:,} fixes/s |")
print(f"| the fleet's batch latency (batches of {f['batch']:,}), p50 / p99 | {f['p50_ms']} / {f['p99_ms']} ms |")
print(f"| the service's CPU per fix in the fleet run (user + system, all threads) | {cpu / f['fixes'] * 1e6:.1f} µs |")
if sys.argv[4]:
    postgres = int(sys.argv[4]) / int(sys.argv[3])
    print(f"| PostgreSQL's CPU per fix in the fleet run (its server's processes on this machine) | {postgres / f['fixes'] * 1e6:.1f} µs |")
PY
done
swift build -c release --product geoq-bench >&2
echo
echo "In process, the same build (the peer):"
echo
"$(swift build -c release --show-bin-path)/geoq-bench" --only tracking --runs 3 2>/dev/null | grep '^|'
