#!/usr/bin/env bash
# On demand (not in the tests): the map page's weight, its time to the first answer and the AR
# view's time to its first labels on loopback, in headless chromium against `geoq serve`
# (release build) on the shared data. Prints Markdown tables for docs/BENCHMARKS.md.
#
#   benchmarks/page/run.sh [loads per address, default 10]
#
# The browser, Selenium and the server come from tools/browser-test, which stops the server on
# exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
loads="${1:-10}"

swift build -c release --product geoq >&2
swift build -c release --product geoq-server >&2
export GEOQ_BINARY="$(swift build -c release --show-bin-path)/geoq"
tools/browser-test benchmarks/page/measure.py "$loads"
tools/browser-test benchmarks/page/ar_labels.py "$loads"
