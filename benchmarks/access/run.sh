#!/usr/bin/env bash
# On demand (not in the tests): what the key check costs. Two `geoq serve` (release) on one
# store, each pinned to core 0 with one thread while wrk runs on core 1: one with open reads,
# asked without a key; one with --private-reads, asked with a read key (every request checked:
# the bearer header parsed, the key's SHA-256 compared, the scope and the key's token bucket).
# GET /v1/sector at 16 connections, rounds alternating between three clients: the open service
# asked without a key, the open service asked with a header of the key's length that nothing
# reads (what carrying a credential costs the parser and the loopback, checked or not), and the
# private service asked with the key. The median of each, its CPU time per request (all, and in
# user space: the kernel's share of a request moves with how the loopback's wake-ups fall, by a
# few µs from round to round), and the ratios: the check's against the same bytes unchecked, and
# the whole keyed request's against an anonymous one. Prints Markdown for docs/BENCHMARKS.md.
#
#   benchmarks/access/run.sh [rounds, default 5] [seconds per round, default 5]
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/geoq-service.sh
rounds="${1:-5}"
duration="${2:-5}"
command -v wrk >/dev/null || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >&2; }
tools/ensure-dependencies.sh >&2
if [ -n "${GEOQ_BIN:-}" ]; then
    geoq="$GEOQ_BIN"
else
    geoq="$(release_geoq)"
fi
export GEOQ_DATA_DIR="${GEOQ_DATA_DIR:-../shared/data}"

work="$(mktemp -d)"
store="$work/geoq.gpkg"
key="$("$geoq" keys add --tenant bench --scope read --rate 10000000 --store "$store" 2>/dev/null)"
open_port=18094
private_port=18095
pids=()
trap 'for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"' EXIT
taskset -c 0 "$geoq" serve --port "$open_port" --store "$store" --threads 1 2>"$work/open.log" &
pids+=($!)
taskset -c 0 "$geoq" serve --port "$private_port" --store "$store" --threads 1 --private-reads 2>"$work/private.log" &
pids+=($!)
for port in "$open_port" "$private_port"; do wait_until_ready "$port"; done
path="/v1/sector?lat=42.81&lon=-1.64"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$private_port$path")" = 401 ] ||
    { echo "access: the private service answered without a key" >&2; exit 1; }
cmp -s <(curl -sf "http://127.0.0.1:$open_port$path") \
    <(curl -sf -H "Authorization: Bearer $key" "http://127.0.0.1:$private_port$path") ||
    { echo "access: the two services answer differently" >&2; exit 1; }

# One round: requests/s, CPU µs per request and user-space CPU µs per request of the server on
# PORT (pid PID), with HEADER.
round() {
    local port=$1 pid=$2 before after
    before=$(cpu_ticks "$pid")
    taskset -c 1 wrk -t1 -c16 -d"${duration}s" ${3:+-H "$3"} "http://127.0.0.1:$port$path" >"$work/wrk.txt"
    after=$(cpu_ticks "$pid")
    grep -q "Non-2xx" "$work/wrk.txt" && { echo "access: non-2xx answers on $port" >&2; cat "$work/wrk.txt" >&2; exit 1; }
    read -r user_before system_before <<<"$before"
    read -r user_after system_after <<<"$after"
    awk -v u=$((user_after - user_before)) -v s=$((system_after - system_before)) -v hz="$(getconf CLK_TCK)" \
        '/requests in/ { n = $1 } /Requests\/sec/ { r = $2 }
         END { printf "%.0f %.2f %.2f\n", r, (u + s) * 1e6 / hz / n, u * 1e6 / hz / n }' "$work/wrk.txt"
}
: >"$work/open.txt"
: >"$work/padded.txt"
: >"$work/private.txt"
# As long as the Authorization header, under a name no one reads.
padding="X-Padding: $(printf 'Bearer %s' "$key" | tr -c '' 'x')"
for i in $(seq 1 "$rounds"); do
    [ -t 2 ] && echo "access: round $i of $rounds" >&2
    round "$open_port" "${pids[0]}" >>"$work/open.txt"
    round "$open_port" "${pids[0]}" "$padding" >>"$work/padded.txt"
    round "$private_port" "${pids[1]}" "Authorization: Bearer $key" >>"$work/private.txt"
done
median() { sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
open_rps=$(median "$work/open.txt" 1)
padded_rps=$(median "$work/padded.txt" 1)
padded_cpu=$(median "$work/padded.txt" 2)
padded_user=$(median "$work/padded.txt" 3)
private_rps=$(median "$work/private.txt" 1)
open_cpu=$(median "$work/open.txt" 2)
private_cpu=$(median "$work/private.txt" 2)
open_user=$(median "$work/open.txt" 3)
private_user=$(median "$work/private.txt" 3)
echo "| GET /v1/sector, 16 connections, server pinned to one core (median of $rounds rounds of ${duration} s) | req/s | CPU µs/req | of it in user space |"
echo "|---|---:|---:|---:|"
echo "| open reads, no key | $open_rps | $open_cpu | $open_user |"
echo "| open reads, a header of the key's length that nothing reads | $padded_rps | $padded_cpu | $padded_user |"
echo "| --private-reads, a read key checked on every request | $private_rps | $private_cpu | $private_user |"
ratio() { # label, keyed, peer (rps, cpu, user each)
    awk -v l="$1" -v a="$2" -v b="$5" -v c="$3" -v d="$6" -v e="$4" -v f="$7" \
        'BEGIN { printf "| %s | %.3f | %.3f | %.3f |\n", l, a / b, c / d, e / f }'
}
ratio "the check: keyed / the same bytes unchecked" "$private_rps" "$private_cpu" "$private_user" "$padded_rps" "$padded_cpu" "$padded_user"
ratio "keyed / anonymous (the check and carrying the key)" "$private_rps" "$private_cpu" "$private_user" "$open_rps" "$open_cpu" "$open_user"
