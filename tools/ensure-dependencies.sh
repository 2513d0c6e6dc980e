#!/usr/bin/env bash
# Installs the system libraries geoq links (GEOS, PROJ with its database, SQLite, libxml2, zlib) and the
# Leaflet files `geoq serve` hands to its map page (libjs-leaflet) when they are missing; with
# --tests also GDAL's command-line tools and Python bindings, which the tests use as a real
# GeoPackage client (ogrinfo, ogr2ogr, GDAL's validate_gpkg), the sqlite3 shell (the tests read stores
# back with it), nginx, wrk and psql for the replicas
# test (tools/replica-test; tools/postgres installs the PostgreSQL server and PostGIS), and redis-server,
# which the tests of hooks that append to Redis streams start on loopback; with --browser a headless browser
# and its WebDriver (chromium, chromium-driver) for tools/browser-test. Idempotent: does nothing,
# and needs no network, when everything is present.
set -euo pipefail

packages=(libgeos-dev libproj-dev proj-data libsqlite3-dev libxml2-dev zlib1g-dev pkg-config libjs-leaflet)
with_tests=false
with_browser=false
[ "${1:-}" = "--tests" ] && with_tests=true && packages+=(gdal-bin python3-gdal sqlite3 nginx-light wrk postgresql-client-15 redis-server)
[ "${1:-}" = "--browser" ] && with_browser=true && packages+=(chromium chromium-driver python3-venv)

have_all() {
    command -v pkg-config >/dev/null 2>&1 &&
        pkg-config --exists geos proj sqlite3 libxml-2.0 zlib &&
        [ -f /usr/share/proj/proj.db ] &&
        [ -f /usr/share/javascript/leaflet/leaflet.js ] &&
        { ! $with_browser || { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && /usr/bin/python3 -c 'import ensurepip' 2>/dev/null; }; } &&
        { ! $with_tests || { command -v ogrinfo >/dev/null 2>&1 && /usr/bin/python3 -c 'import osgeo' 2>/dev/null &&
            command -v sqlite3 >/dev/null 2>&1 &&
            [ -x /usr/sbin/nginx ] && command -v wrk >/dev/null 2>&1 && command -v psql >/dev/null 2>&1 &&
            [ -x /usr/bin/redis-server ] && [ -x /usr/bin/redis-cli ]; }; }
}

if have_all; then
    exit 0
fi

echo "geoq: installing system libraries: ${packages[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "geoq: need root or sudo to apt-get install ${packages[*]}" >&2; exit 1; }
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null

have_all || {
    echo "geoq: still missing after installing ${packages[*]}: check pkg-config geos proj sqlite3 libxml-2.0 zlib," \
        "/usr/share/proj/proj.db, /usr/share/javascript/leaflet/leaflet.js$($with_tests && echo ", ogrinfo, Debian's python3 with osgeo, the sqlite3 shell, nginx, wrk, psql, redis-server")$($with_browser && echo ", /usr/bin/chromium, /usr/bin/chromedriver and python3's venv")" >&2
    exit 1
}
