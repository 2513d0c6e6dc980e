"""A city's fleet through POST /v1/fixes: many devices on random walks in the Pamplona sectors' box,
NDJSON batches over several kept-alive connections at once, for fixes per second and the batch
latency (request sent to answer read). Run by benchmarks/tracking/run.sh.

usage: GEOQ_KEY=KEY fleet.py BASE_URL [DEVICES] [CONNECTIONS] [BATCH] [SECONDS] [BOX]

BOX: `city` (default: the sectors' box, where devices enter and leave sectors) or `outside`
(the same box half a degree south, in no feature: devices that never open a stay).

Each connection has its own devices (device i goes to connection i % CONNECTIONS) and sends its
batches one after another in time order, so that no fix reaches the service older than its
device's last. The bodies are made first, into files, then sent by wrk (fleet.lua: a thread a
connection; a client in C, so that on a machine of two cores the load's own CPU and its threads'
waits do not stand for the service's); the clock stops after SECONDS or when every batch is
answered. Prints one line of JSON.
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.parse

base = urllib.parse.urlparse(sys.argv[1])
devices = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
connections = int(sys.argv[3]) if len(sys.argv) > 3 else 16
batch = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 20.0
south = 42.795 - (0.5 if len(sys.argv) > 6 and sys.argv[6] == "outside" else 0)
key = os.environ["GEOQ_KEY"]
layer = "pamplona-sectors"
# Fixes 5 s apart, the last of them a little in the past: the service refuses fixes ahead of
# its clock, and ends the stays of devices silent for ten minutes.
total = 8_000_000
steps = min(120, -(-total // devices))
start = int(time.time()) - 5 * steps - 5


def stamp(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + "Z"


def requests_of(connection):
    """The connection's batches (NDJSON bodies), in the order they are sent."""
    rng = random.Random(2026 + connection)
    own = [
        [f"fleet-{i}", south + rng.random() * 0.03, -1.66 + rng.random() * 0.04]
        for i in range(connection, devices, connections)
    ]
    out = []
    lines = []
    step = 0
    while len(out) * batch < total / connections and step < steps:
        for device in own:
            device[1] += (rng.random() - 0.5) * 0.0002
            device[2] += (rng.random() - 0.5) * 0.0002
            lines.append(
                f'{{"device":"{device[0]}","time":"{stamp(start + step * 5)}",'
                f'"lat":{device[1]:.6f},"lon":{device[2]:.6f},"accuracy":10}}'
            )
            if len(lines) == batch:
                out.append("\n".join(lines))
                lines = []
        step += 1
    return out


planned = [requests_of(c) for c in range(connections)]
with tempfile.TemporaryDirectory() as folder:
    for c, bodies in enumerate(planned):
        with open(os.path.join(folder, f"{c}.ndjson"), "w") as out:
            out.write("\n\n".join(bodies))
    run = subprocess.run(
        ["wrk", f"-t{connections}", f"-c{connections}", f"-d{int(seconds)}s", "--timeout", "30s",
         "-s", os.path.join(os.path.dirname(os.path.abspath(__file__)), "fleet.lua"),
         f"http://{base.hostname}:{base.port}", "--", folder, key, layer],
        capture_output=True, text=True, check=True)
answer = json.loads(run.stdout.strip().splitlines()[-1])
fixes = min(answer["requests"], sum(len(b) for b in planned)) * batch
print(
    json.dumps(
        {
            "devices": devices,
            "connections": connections,
            "batch": batch,
            "fixes": fixes,
            "seconds": round(answer["seconds"], 2),
            "fixes_per_second": round(fixes / answer["seconds"]),
            "p50_ms": answer["p50_ms"],
            "p99_ms": answer["p99_ms"],
            "failures": [f"{answer['not_ok']} answers not 2xx, {answer['socket_errors']} socket errors"]
            if answer["not_ok"] or answer["socket_errors"] else [],
        }
    )
)
