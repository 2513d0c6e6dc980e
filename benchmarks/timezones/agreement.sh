#!/usr/bin/env bash
# geoq against timezonefinder on 100,000 seeded random points (benchmarks/timezones/agreement.py):
# fetches the time zones and the Python peers if needed, builds geoq in release, prints Markdown.
# Usage: benchmarks/timezones/agreement.sh [--points N] [--seed S] [--list]   (--list: every difference, one row each)
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/fetch-benchmark-data.sh timezones
swift build -c release --product geoq >&2
exec .build-venv-timezones/bin/python benchmarks/timezones/agreement.py --geoq .build/release/geoq "$@"
