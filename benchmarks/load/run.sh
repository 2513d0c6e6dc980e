#!/usr/bin/env bash
# On demand (not in the tests): HTTP load on loopback with wrk, `GET /v1/sector` of
# `geoq serve` (release build) side by side with nginx serving the same answer as a fixed file
# (the ceiling for an HTTP answer on this machine). Prints a Markdown table for the README.
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
single_port=18092
cleanup() {
    [ -n "${geoq_pid:-}" ] && kill "$geoq_pid" 2>/dev/null || true
    [ -n "${single_pid:-}" ] && kill "$single_pid" 2>/dev/null || true
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

"$geoq" serve --port "$geoq_port" 2>"$work/geoq.log" &
geoq_pid=$!
# The same service on one event-loop thread (`--threads 1`): the other core is left to wrk.
"$geoq" serve --port "$single_port" --threads 1 2>"$work/geoq-single.log" &
single_pid=$!
for port in "$geoq_port" "$single_port"; do
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
        location / { default_type application/json; try_files \$uri =404; }
    }
}
CONF
nginx -c "$work/nginx.conf"
sleep 0.5
curl -sf "http://127.0.0.1:$nginx_port/v1/sector" >/dev/null

# One wrk run: requests/s, p50 and p99 latency.
measure() {
    local url=$1 connections=$2 threads=2
    [ "$connections" -eq 1 ] && threads=1
    wrk -t"$threads" -c"$connections" -d"${duration}s" --latency "$url" >"$work/wrk.txt"
    local rps p50 p99
    rps=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt")
    p50=$(awk '$1 == "50%" {print $2}' "$work/wrk.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")
    if grep -q "Non-2xx" "$work/wrk.txt"; then echo "load: non-2xx answers from $url" >&2; cat "$work/wrk.txt" >&2; fi
    echo "$rps|$p50|$p99"
}

# Also geoq's /healthz: the same HTTP stack and middleware with no lookup, the floor of what
# the stack allows on this machine.
echo "| connections | geoq req/s | geoq p50 | geoq p99 | nginx req/s | nginx p50 | nginx p99 | geoq / nginx | geoq /healthz req/s (/ nginx) | geoq --threads 1 req/s (/ nginx), p99 |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for c in 1 16 64; do
    IFS='|' read -r g_rps g_p50 g_p99 <<<"$(measure "http://127.0.0.1:$geoq_port$path" "$c")"
    IFS='|' read -r n_rps n_p50 n_p99 <<<"$(measure "http://127.0.0.1:$nginx_port/v1/sector" "$c")"
    IFS='|' read -r h_rps _ _ <<<"$(measure "http://127.0.0.1:$geoq_port/healthz" "$c")"
    IFS='|' read -r s_rps _ s_p99 <<<"$(measure "http://127.0.0.1:$single_port$path" "$c")"
    ratio=$(awk -v a="$g_rps" -v b="$n_rps" 'BEGIN { printf "%.2f", a / b }')
    floor=$(awk -v a="$h_rps" -v b="$n_rps" 'BEGIN { printf "%.2f", a / b }')
    single=$(awk -v a="$s_rps" -v b="$n_rps" 'BEGIN { printf "%.2f", a / b }')
    echo "| $c | $g_rps | $g_p50 | $g_p99 | $n_rps | $n_p50 | $n_p99 | $ratio | $h_rps ($floor) | $s_rps ($single), $s_p99 |"
done
echo
echo "wrk ${duration} s per run on loopback, $(nproc) cores; geoq and nginx answer the same $(wc -c <"$work/answer.json") bytes."
