#!/usr/bin/env bash
# On demand (not in the tests, as it needs PyPI): schemathesis, installed from PyPI into
# .build-schemathesis/, run against a live `geoq serve` (debug build) with every check, using
# the served /openapi.json, with a key of every scope (reads made private). Prints schemathesis's
# report; exits with its status.
#
#   tools/schemathesis/run.sh [extra schemathesis options, e.g. --max-examples 200]
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/geoq-service.sh

venv=.build-schemathesis
if [ ! -x "$venv/bin/schemathesis" ]; then
    echo "schemathesis: installing from PyPI into $venv" >&2
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install -q schemathesis >&2
fi
tools/ensure-dependencies.sh >&2
swift build --product geoq >&2
swift build --product geoq-server >&2
geoq="$(swift build --show-bin-path)/geoq"

# A store of its own, with one key of every scope: the reads are made private so that every
# operation is tried with the key (and, by the ignored_auth check, without it: a 401 is expected).
work=$(mktemp -d)
store="$work/schemathesis.gpkg"
GEOQ_KEY=$("$geoq" keys add --tenant schemathesis --scope read --scope track --scope events --scope hooks \
    --scope admin --store "$store" 2>/dev/null)
export GEOQ_KEY
port=18093
"$geoq" serve --port "$port" --store "$store" --private-reads 2>/dev/null &
geoq_pid=$!
trap 'kill "$geoq_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
wait_until_ready "$port" 120 1
"$venv/bin/schemathesis" --config-file tools/schemathesis/schemathesis.toml run \
    "http://127.0.0.1:$port/openapi.json" --checks all "$@"
