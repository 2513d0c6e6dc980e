#!/usr/bin/env python3
"""The Python peers of geoq's time-zone benchmark: tzfpy and timezonefinder on the same points.

Usage: peers.py POINTS ANSWERS [RUNS]
  POINTS   a file of "lat,lon" lines (degrees, latitude first), written by geoq-bench
  ANSWERS  written here: one line per point, "tzfpy zone,timezonefinder zone"
Prints one JSON object on standard output: for each peer the nanoseconds per point of every
run (a plain Python loop calling the library once per point), the same for a loop that calls
a trivial Python function (the share of each figure that is Python's own call overhead), the
time to get each finder ready, and the library versions.

Run it with the interpreter of .build-venv-timezones (made by tools/fetch-benchmark-data.sh
timezones), which holds timezonefinder 9.0.0 with timezonefinder-data, and tzfpy 2.1.1.
"""
import json
import sys
import time
from importlib.metadata import version


def per_point(points, lookup, runs):
    """ns per point of each run of one loop that looks every point up."""
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        for lat, lon in points:
            lookup(lon, lat)
        times.append((time.perf_counter_ns() - start) / len(points))
    return times


def main():
    points_file, answers_file = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    with open(points_file) as f:
        points = [tuple(float(v) for v in line.split(",")) for line in f if line.strip()]

    start = time.perf_counter_ns()
    import tzfpy

    tzfpy.get_tz(0.0, 0.0)  # tzfpy builds its finder on first use
    tzfpy_ready_ms = (time.perf_counter_ns() - start) / 1e6

    start = time.perf_counter_ns()
    from timezonefinder import TimezoneFinder

    # in_memory: the polygons read into memory once (the package's fastest mode).
    finder = TimezoneFinder(in_memory=True)
    finder.timezone_at(lng=0.0, lat=0.0)
    timezonefinder_ready_ms = (time.perf_counter_ns() - start) / 1e6

    def nothing(lng, lat):
        return None

    def tzf(lng, lat):
        return finder.timezone_at(lng=lng, lat=lat)

    result = {
        "points": len(points),
        "runs": runs,
        "python": sys.version.split()[0],
        "versions": {
            name: version(name) for name in ("tzfpy", "timezonefinder", "timezonefinder-data")
        },
        "readyMilliseconds": {"tzfpy": tzfpy_ready_ms, "timezonefinder": timezonefinder_ready_ms},
        # The same loop calling a Python function that does nothing: what every figure below
        # includes besides the library's own work.
        "emptyCallNanoseconds": per_point(points, nothing, runs),
        "tzfpyNanoseconds": per_point(points, tzfpy.get_tz, runs),
        # timezonefinder's own wrapper takes keyword arguments; the closure adds one call.
        "timezonefinderNanoseconds": per_point(points, tzf, runs),
    }
    with open(answers_file, "w") as out:
        for lat, lon in points:
            out.write("%s,%s\n" % (tzfpy.get_tz(lon, lat), finder.timezone_at(lng=lon, lat=lat)))
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
