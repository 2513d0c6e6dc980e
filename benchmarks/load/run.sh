#!/usr/bin/env bash
# On demand (not in the tests): HTTP load on loopback with wrk, `GET /v1/sector` of
# `geoq serve` (release build) side by side with nginx serving the same answer as a fixed file
# (the ceiling for an HTTP answer on this machine). Prints two Markdown tables for the README:
#
# - shared: wrk, geoq and nginx on every core, each server with its default threads (one per
#   core); wrk's own work competes with the server's, and the scheduler's slices show in p99.
# - pinned (with 2 cores or more): the server on core 0 (geoq `--threads 1`, one nginx worker),
#   wrk on core 1, so that each server gets one whole core and the load generator another.
#
#   benchmarks/load/run.sh [seconds per run, default 10]
#
# Installs wrk and nginx with apt if they are missing. Everything it starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
duration="${1:-10}"

if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null; then
    echo "load: installing wrk and nginx" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light >&2
fi
tools/ensure-dependencies.sh >&2
swift build -c release --product geoq >&2
geoq="$(swift build -c release --show-bin-path)/geoq"
[ -f "${GEOQ_STORE:-data/geoq.gpkg}" ] || "$geoq" import --all >&2

work="$(mktemp -d)"
geoq_port=18090
nginx_port=18091
pinned_geoq_port=18092
pinned_nginx_port=18093
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pidfile in "$work"/nginx-*.pid; do [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

pin=""
cores=$(nproc)
[ "$cores" -ge 2 ] && pin=yes

"$geoq" serve --port "$geoq_port" 2>"$work/geoq.log" &
pids+=($!)
if [ -n "$pin" ]; then
    taskset -c 0 "$geoq" serve --port "$pinned_geoq_port" --threads 1 2>"$work/geoq-pinned.log" &
    pids+=($!)
fi
for port in "$geoq_port" ${pin:+"$pinned_geoq_port"}; do
    for _ in $(seq 1 120); do
        curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break
        sleep 0.5
    done
done
path="/v1/sector?lat=42.81&lon=-1.64"
curl -sf "http://127.0.0.1:$geoq_port$path" >"$work/answer.json"

# nginx: the same bytes as a static file, with the same media type.
mkdir -p "$work/root/v1"
cp "$work/answer.json" "$work/root/v1/sector"
start_nginx() {
    local name=$1 port=$2 workers=$3
    cat >"$work/nginx-$name.conf" <<CONF
worker_processes $workers;
pid $work/nginx-$name.pid;
error_log $work/nginx-$name-error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work;
    proxy_temp_path $work;
    fastcgi_temp_path $work;
    uwsgi_temp_path $work;
    scgi_temp_path $work;
    server {
        listen 127.0.0.1:$port;
        root $work/root;
        location / { default_type application/json; try_files \$uri =404; }
    }
}
CONF
    ${4:+taskset -c "$4"} nginx -c "$work/nginx-$name.conf"
}
start_nginx shared "$nginx_port" auto
[ -n "$pin" ] && start_nginx pinned "$pinned_nginx_port" 1 0
sleep 0.5
curl -sf "http://127.0.0.1:$nginx_port/v1/sector" >/dev/null

# One wrk run: requests/s, p50 and p99 latency. With a third argument, wrk runs on that core
# with one thread.
measure() {
    local url=$1 connections=$2 threads=2
    [ "$connections" -eq 1 ] && threads=1
    if [ -n "${3:-}" ]; then
        taskset -c "$3" wrk -t1 -c"$connections" -d"${duration}s" --latency "$url" >"$work/wrk.txt"
    else
        wrk -t"$threads" -c"$connections" -d"${duration}s" --latency "$url" >"$work/wrk.txt"
    fi
    local rps p50 p99
    rps=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt")
    p50=$(awk '$1 == "50%" {print $2}' "$work/wrk.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")
    if grep -q "Non-2xx" "$work/wrk.txt"; then echo "load: non-2xx answers from $url" >&2; cat "$work/wrk.txt" >&2; fi
    echo "$rps|$p50|$p99"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
progress() { [ -t 2 ] && printf 'load: %s\n' "$1" >&2 || true; }

# Also geoq's /healthz: the same HTTP stack with no lookup, the floor of what the stack
# allows on this machine.
echo "Shared cores (wrk -t2; geoq and nginx with one thread or worker per core):"
echo
echo "| connections | geoq req/s | geoq p50 | geoq p99 | nginx req/s | nginx p50 | nginx p99 | geoq / nginx | geoq /healthz req/s (/ nginx) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for c in 1 16 64; do
    progress "shared, $c connections"
    IFS='|' read -r g_rps g_p50 g_p99 <<<"$(measure "http://127.0.0.1:$geoq_port$path" "$c")"
    IFS='|' read -r n_rps n_p50 n_p99 <<<"$(measure "http://127.0.0.1:$nginx_port/v1/sector" "$c")"
    IFS='|' read -r h_rps _ _ <<<"$(measure "http://127.0.0.1:$geoq_port/healthz" "$c")"
    echo "| $c | $g_rps | $g_p50 | $g_p99 | $n_rps | $n_p50 | $n_p99 | $(ratio "$g_rps" "$n_rps") | $h_rps ($(ratio "$h_rps" "$n_rps")) |"
done
if [ -n "$pin" ]; then
    echo
    echo "Pinned (server on core 0: geoq --threads 1, one nginx worker; wrk -t1 on core 1):"
    echo
    echo "| connections | geoq req/s | geoq p50 | geoq p99 | nginx req/s | nginx p50 | nginx p99 | geoq / nginx |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
    for c in 1 16 64; do
        progress "pinned, $c connections"
        IFS='|' read -r g_rps g_p50 g_p99 <<<"$(measure "http://127.0.0.1:$pinned_geoq_port$path" "$c" 1)"
        IFS='|' read -r n_rps n_p50 n_p99 <<<"$(measure "http://127.0.0.1:$pinned_nginx_port/v1/sector" "$c" 1)"
        echo "| $c | $g_rps | $g_p50 | $g_p99 | $n_rps | $n_p50 | $n_p99 | $(ratio "$g_rps" "$n_rps") |"
    done
fi
echo
echo "wrk ${duration} s per run on loopback, $cores cores; geoq and nginx answer the same $(wc -c <"$work/answer.json") bytes."
