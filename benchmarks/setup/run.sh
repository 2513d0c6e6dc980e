#!/usr/bin/env bash
# The README's two commands on a fresh clone with an empty build folder: the time to the first
# answer (`tools/run which-sector 42.81 -1.64`) and then to the end of `tools/test`, in seconds.
# The system packages are whatever the machine has (on a fresh machine apt adds its downloads);
# the clone's data/external starts empty, so tools/test fetches its PyPI data again. The clone's
# tests start their own PostgreSQL on tools/postgres's port: stop this checkout's first.
#
# usage: benchmarks/setup/run.sh [REV]     (default HEAD; the clone goes to a temporary folder,
#                                          its logs stay there and are named at the end)
set -euo pipefail
cd "$(dirname "$0")/../.."
rev="${1:-HEAD}"
work="$(mktemp -d "${TMPDIR:-/tmp}/geoq-setup.XXXXXX")"
# mktemp's folder is the caller's alone; the tests' PostgreSQL clusters, run as the postgres user,
# live inside the clone and must be reachable.
chmod 755 "$work"
git clone -q . "$work/geoq"
git -C "$work/geoq" checkout -q "$(git rev-parse "$rev")"
# The clone reads the shared city data where this checkout does.
export GEOQ_DATA_DIR="${GEOQ_DATA_DIR:-$(cd ../shared/data 2>/dev/null && pwd)}"
cd "$work/geoq"
start=$(date +%s.%N)
tools/run which-sector 42.81 -1.64 >"$work/run.out" 2>"$work/run.err"
answered=$(date +%s.%N)
status=0
tools/test >"$work/test.log" 2>&1 || status=$?
ended=$(date +%s.%N)
python3 - "$start" "$answered" "$ended" "$status" "$(git rev-parse --short HEAD)" <<'PY'
import sys
start, answered, ended = map(float, sys.argv[1:4])
print(f"{sys.argv[5]}: first answer {answered - start:.1f} s, tools/test {ended - answered:.1f} s "
      f"(exit {sys.argv[4]}), both {ended - start:.1f} s")
PY
echo "logs: $work/run.err, $work/test.log (remove $work when done)"
exit "$status"
