#!/usr/bin/env bash
# On demand (not in the tests): HTTP load on loopback with wrk, `geoq serve` (release build)
# side by side with nginx serving the same answers as static files (the ceiling for an HTTP
# answer on this machine). Prints Markdown tables for docs/BENCHMARKS.md:
#
# - shared: wrk, geoq and nginx on every core, each server with its default threads (one per
#   core); wrk's own work competes with the server's, and the scheduler's slices show in p99.
# - pinned (with 2 cores or more): the server on core 0 (geoq `--threads 1`, one nginx worker),
#   wrk on core 1, so that each server gets one whole core and the load generator another.
#
# Two modes:
# - fixed (the default): every request is `GET /v1/sector?lat=42.81&lon=-1.64`; nginx serves
#   its answer as one file.
# - realistic (`--realistic`): requests as real clients send them, `GET /v1/sector` and then
#   `GET /v1/park`, each request a different point drawn at random from a seeded file
#   (realistic-points.py: the Pamplona and Valencia polygon layers mixed, about two thirds of
#   the points outside their layer; the park requests over the Pamplona sectors with a zone and
#   a ticket), sent by the wrk script realistic.lua. nginx serves one file per request target,
#   holding geoq's own answer to it, found by the same query string (`try_files
#   /answers$uri/$args`): the same requests, the same answer bytes, and a file to find per
#   request rather than one file hot in every cache.
#
#   benchmarks/load/run.sh [--realistic] [--seed N] [seconds per run, default 10]
#
# GEOQ_BIN=PATH uses that geoq (a release build) instead of building one.
#
# Installs wrk and nginx with apt if they are missing. Everything it starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/geoq-service.sh
mode=fixed
seed=20261125
while [ $# -gt 0 ]; do
    case "$1" in
    --realistic) mode=realistic ;;
    --seed) seed="$2"; shift ;;
    *) break ;;
    esac
    shift
done
duration="${1:-10}"

if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null; then
    echo "load: installing wrk and nginx" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light >&2
fi
tools/ensure-dependencies.sh >&2
if [ -n "${GEOQ_BIN:-}" ]; then
    geoq="$GEOQ_BIN" # a release build made already
else
    geoq="$(release_geoq)"
fi
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
for port in "$geoq_port" ${pin:+"$pinned_geoq_port"}; do wait_until_ready "$port"; done
path="/v1/sector?lat=42.81&lon=-1.64"
curl -sf "http://127.0.0.1:$geoq_port$path" >"$work/answer.json"

# nginx: the same bytes as static files, with the same media type. Fixed: one file. Realistic:
# geoq's answer to each request target in a file named by the target's query string, under
# answers/ and the target's path.
mkdir -p "$work/root/v1"
cp "$work/answer.json" "$work/root/v1/sector"
location='try_files $uri =404;'
if [ "$mode" = realistic ]; then
    python3 benchmarks/load/realistic-points.py --server "http://127.0.0.1:$geoq_port" --seed "$seed" --out "$work"
    for endpoint in sector park; do
        mkdir -p "$work/root/answers/v1/$endpoint"
        # One curl for all the targets: a config file of url/output pairs.
        while IFS= read -r target; do
            printf 'url = "http://127.0.0.1:%s%s"\noutput = "%s/root/answers/v1/%s/%s"\n' \
                "$geoq_port" "$target" "$work" "$endpoint" "${target#*\?}"
        done <"$work/$endpoint.txt" >"$work/$endpoint.curl"
        curl -s -K "$work/$endpoint.curl" -w '%{http_code}\n' | sort | uniq -c | awk -v e="$endpoint" \
            '$2 != 200 { bad = 1; print "load: /v1/" e ": " $1 " answers with status " $2 >"/dev/stderr" }
             END { exit bad }'
    done
    location='try_files /answers$uri/$args =404;'
fi
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
        location / { default_type application/json; $location }
    }
}
CONF
    ${4:+taskset -c "$4"} nginx -c "$work/nginx-$name.conf"
}
start_nginx shared "$nginx_port" auto
[ -n "$pin" ] && start_nginx pinned "$pinned_nginx_port" 1 0
sleep 0.5
if [ "$mode" = realistic ]; then
    curl -sf "http://127.0.0.1:$nginx_port$(head -1 "$work/sector.txt")" >/dev/null
else
    curl -sf "http://127.0.0.1:$nginx_port/v1/sector" >/dev/null
fi

# The CPU time (user and system, in clock ticks) the processes given have used so far.
total_cpu_ticks() {
    local pid
    for pid in "$@"; do cpu_ticks "$pid"; done | awk '{ s += $1 + $2 } END { print s + 0 }'
}

# The server's processes: geoq's pid, or nginx's master and workers (from its pid file).
server_pids() {
    if [ -f "$1" ]; then
        local master
        master=$(cat "$1")
        echo "$master" $(pgrep -P "$master")
    else
        echo "$1"
    fi
}

# One wrk run: requests/s, p50 and p99 latency. With a third argument, wrk runs on that core
# with one thread. With a fourth (a file of request targets), the requests are drawn at random
# from it by realistic.lua, against the server of the URL. With a fifth (the server's pids), also
# the server's CPU time per request in microseconds: steadier than requests/s when other work
# shares the machine.
measure() {
    local url=$1 connections=$2 threads=2 script=()
    [ "$connections" -eq 1 ] && threads=1
    [ -n "${4:-}" ] && script=(-s benchmarks/load/realistic.lua)
    local ticks=0
    [ -n "${5:-}" ] && ticks=$(total_cpu_ticks $5)
    if [ -n "${3:-}" ]; then
        taskset -c "$3" wrk -t1 -c"$connections" -d"${duration}s" --latency "${script[@]}" "$url" \
            ${4:+-- "$4" "$seed"} >"$work/wrk.txt"
    else
        wrk -t"$threads" -c"$connections" -d"${duration}s" --latency "${script[@]}" "$url" \
            ${4:+-- "$4" "$seed"} >"$work/wrk.txt"
    fi
    local rps p50 p99 cpu=""
    if [ -n "${5:-}" ]; then
        ticks=$(($(total_cpu_ticks $5) - ticks))
        cpu=$(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v n="$(awk '/requests in/ { print $1 }' "$work/wrk.txt")" \
            'BEGIN { printf "|%.1f", t * 1e6 / hz / n }')
    fi
    rps=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt")
    p50=$(awk '$1 == "50%" {print $2}' "$work/wrk.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")
    if grep -q "Non-2xx" "$work/wrk.txt"; then echo "load: non-2xx answers from $url" >&2; cat "$work/wrk.txt" >&2; fi
    echo "$rps|$p50|$p99$cpu"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
progress() { [ -t 2 ] && printf 'load: %s\n' "$1" >&2 || true; }

if [ "$mode" = realistic ]; then
    table_head() {
        echo "| endpoint | connections | geoq req/s | geoq p50 | geoq p99 | nginx req/s | nginx p50 | nginx p99 | geoq / nginx | geoq CPU µs/req | nginx CPU µs/req | nginx / geoq CPU |"
        echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    }
    # realistic_rows HARNESS GEOQ_PORT NGINX_PORT WRK_CORE GEOQ_PID NGINX_PIDFILE (WRK_CORE may be empty)
    realistic_rows() {
        local endpoint c
        for endpoint in sector park; do
            for c in 1 16 64; do
                progress "$1, /v1/$endpoint, $c connections"
                IFS='|' read -r g_rps g_p50 g_p99 g_cpu <<<"$(measure "http://127.0.0.1:$2" "$c" "${4:-}" \
                    "$work/$endpoint.txt" "$(server_pids "$5")")"
                IFS='|' read -r n_rps n_p50 n_p99 n_cpu <<<"$(measure "http://127.0.0.1:$3" "$c" "${4:-}" \
                    "$work/$endpoint.txt" "$(server_pids "$6")")"
                echo "| /v1/$endpoint | $c | $g_rps | $g_p50 | $g_p99 | $n_rps | $n_p50 | $n_p99 | $(ratio "$g_rps" "$n_rps") | $g_cpu | $n_cpu | $(ratio "$n_cpu" "$g_cpu") |"
            done
        done
    }
    echo "Realistic requests (seed $seed), shared cores (wrk -t2; geoq and nginx with one thread or worker per core):"
    echo
    table_head
    realistic_rows shared "$geoq_port" "$nginx_port" "" "${pids[0]}" "$work/nginx-shared.pid"
    if [ -n "$pin" ]; then
        echo
        echo "Realistic requests (seed $seed), pinned (server on core 0: geoq --threads 1, one nginx worker; wrk -t1 on core 1):"
        echo
        table_head
        realistic_rows pinned "$pinned_geoq_port" "$pinned_nginx_port" 1 "${pids[1]}" "$work/nginx-pinned.pid"
    fi
    echo
    sizes() { find "$work/root/answers/v1/$1" -type f -printf '%s\n' | sort -n | awk '{ a[NR] = $1; s += $1 } END { printf "%d to %d bytes, mean %d", a[1], a[NR], s / NR }'; }
    echo "wrk ${duration} s per run on loopback, $cores cores; $(wc -l <"$work/sector.txt") sector and $(wc -l <"$work/park.txt") park request targets drawn at random; geoq and nginx answer the same bytes per target (sector $(sizes sector), park $(sizes park))."
    exit 0
fi

# fixed_table LABEL GEOQ_PORT NGINX_PORT [WRK_CORE]: a row per connection count. On shared cores
# (no WRK_CORE) also geoq's /healthz: the same HTTP stack with no lookup, the floor of what the
# stack allows on this machine.
fixed_table() {
    local c healthz_head="" healthz_rule="" healthz
    [ -z "${4:-}" ] && healthz_head=" geoq /healthz req/s (/ nginx) |" && healthz_rule="---:|"
    echo "| connections | geoq req/s | geoq p50 | geoq p99 | nginx req/s | nginx p50 | nginx p99 | geoq / nginx |$healthz_head"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|$healthz_rule"
    for c in 1 16 64; do
        progress "$1, $c connections"
        IFS='|' read -r g_rps g_p50 g_p99 <<<"$(measure "http://127.0.0.1:$2$path" "$c" "${4:-}")"
        IFS='|' read -r n_rps n_p50 n_p99 <<<"$(measure "http://127.0.0.1:$3/v1/sector" "$c" "${4:-}")"
        healthz=""
        if [ -z "${4:-}" ]; then
            IFS='|' read -r h_rps _ _ <<<"$(measure "http://127.0.0.1:$2/healthz" "$c")"
            healthz=" $h_rps ($(ratio "$h_rps" "$n_rps")) |"
        fi
        echo "| $c | $g_rps | $g_p50 | $g_p99 | $n_rps | $n_p50 | $n_p99 | $(ratio "$g_rps" "$n_rps") |$healthz"
    done
}
echo "Shared cores (wrk -t2; geoq and nginx with one thread or worker per core):"
echo
fixed_table shared "$geoq_port" "$nginx_port"
if [ -n "$pin" ]; then
    echo
    echo "Pinned (server on core 0: geoq --threads 1, one nginx worker; wrk -t1 on core 1):"
    echo
    fixed_table pinned "$pinned_geoq_port" "$pinned_nginx_port" 1
fi
echo
echo "wrk ${duration} s per run on loopback, $cores cores; geoq and nginx answer the same $(wc -c <"$work/answer.json") bytes."
