#!/usr/bin/env python3
"""Does geoq name the same time zone as timezonefinder? On seeded random points uniform on the
sphere, every difference listed with what explains it.

Usage: agreement.py [--points N] [--seed S] [--geoq PATH] [--list]
  (defaults: 100000 points, seed 2026, .build/release/geoq)
Run from the repository with the interpreter of .build-venv-timezones (made by
tools/fetch-benchmark-data.sh timezones); benchmarks/timezones/agreement.sh does both and builds
geoq. Prints Markdown (for docs/BENCHMARKS.md) on standard output.

geoq answers through `geoq which-sector --batch --layer timezones --format json`: its first
covering zone, and how far the point is from that zone's nearest edge (geodesic metres, geoq's
own figure). timezonefinder answers with TimezoneFinder(in_memory=True).timezone_at, tzfpy
with get_tz, as a third opinion.
"""
import argparse
import json
import math
import random
import subprocess
import sys
from importlib.metadata import version


def uniform_on_the_sphere(count, seed):
    """Longitude uniform, sine of the latitude uniform: equal areas get equal shares."""
    rng = random.Random(seed)
    return [
        (math.degrees(math.asin(rng.uniform(-1.0, 1.0))), rng.uniform(-180.0, 180.0))
        for _ in range(count)
    ]


def geoq_answers(geoq, points):
    lines = "".join("%.17g,%.17g,%d\n" % (lat, lon, i) for i, (lat, lon) in enumerate(points))
    run = subprocess.run(
        [geoq, "which-sector", "--batch", "--layer", "timezones", "--format", "json"],
        input=lines.encode(), capture_output=True, check=False,
    )
    if run.returncode not in (0, 3):
        sys.exit("geoq failed (%d): %s" % (run.returncode, run.stderr.decode()[:2000]))
    answers = [json.loads(line) for line in run.stdout.decode().splitlines() if line.strip()]
    if len(answers) != len(points):
        sys.exit("geoq answered %d of %d points" % (len(answers), len(points)))
    return answers


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--points", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--geoq", default=".build/release/geoq")
    parser.add_argument("--list", action="store_true", help="also list every difference, one row each")
    args = parser.parse_args()

    import tzfpy
    from timezonefinder import TimezoneFinder

    finder = TimezoneFinder(in_memory=True)
    points = uniform_on_the_sphere(args.points, args.seed)
    answers = geoq_answers(args.geoq, points)

    differences = []
    outside = 0
    overlapping = 0
    for (lat, lon), answer in zip(points, answers):
        inside = answer["inside"]
        ours = inside[0]["id"] if inside else None
        outside += not inside
        overlapping += len(inside) > 1
        theirs = finder.timezone_at(lng=lon, lat=lat)
        if ours != theirs:
            differences.append((lat, lon, inside, theirs, tzfpy.get_tz(lon, lat)))

    print(
        "geoq against timezonefinder %s (timezonefinder-data %s), tzfpy %s as a third opinion: "
        "%d points uniform on the sphere, seed %d."
        % (version("timezonefinder"), version("timezonefinder-data"), version("tzfpy"),
           len(points), args.seed)
    )
    print("")
    print("| | points |")
    print("|---|---:|")
    print("| geoq's zone (the first that covers the point) is timezonefinder's | %d |" % (len(points) - len(differences)))
    print("| different zone | %d |" % len(differences))
    print("| in no zone of geoq's layer | %d |" % outside)
    print("| covered by more than one zone | %d |" % overlapping)
    print("")
    # Where geoq's zones overlap, geoq names every covering zone; its `timeZone` is the first in
    # layer (alphabetical) order, timezonefinder's the one its own polygon order meets first.
    groups = {}
    for lat, lon, inside, theirs, third in differences:
        key = (tuple(m["id"] for m in inside), theirs, third)
        groups.setdefault(key, []).append((lat, lon, inside))
    if groups:
        print("| geoq: zones covering the point | timezonefinder | tzfpy | points | least depth inside every covering zone |")
        print("|---|---|---|---:|---:|")
        for (ours, theirs, third), rows in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            depth = min(min(m["distanceToEdgeMetres"] for m in inside) for _, _, inside in rows)
            print("| %s | %s | %s | %d | %.0f m |" % (", ".join(ours) or "none", theirs, third, len(rows), depth))
        print("")
    if args.list:
        print("Every difference (depth: geodesic metres from the point to each covering zone's nearest edge):")
        print("")
        print("| lat | lon | geoq: zones covering the point (depth) | timezonefinder | tzfpy |")
        print("|---:|---:|---|---|---|")
        for lat, lon, inside, theirs, third in differences:
            zones = ", ".join("%s (%.0f m)" % (m["id"], m["distanceToEdgeMetres"]) for m in inside) or "none"
            print("| %.7f | %.7f | %s | %s | %s |" % (lat, lon, zones, theirs, third))
        print("")


if __name__ == "__main__":
    main()
