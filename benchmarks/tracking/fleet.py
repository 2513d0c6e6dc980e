"""A city's fleet through POST /v1/fixes: many devices on random walks in the Pamplona sectors' box,
NDJSON batches over several kept-alive connections at once, for fixes per second and the batch
latency (request sent to answer read). Run by benchmarks/tracking/run.sh.

usage: GEOQ_KEY=KEY fleet.py BASE_URL [DEVICES] [CONNECTIONS] [BATCH] [SECONDS] [BOX]

BOX: `city` (default: the sectors' box, where devices enter and leave sectors) or `outside`
(the same box half a degree south, in no feature: devices that never open a stay).

Each connection has its own devices (device i goes to connection i % CONNECTIONS) and sends its
batches one after another in time order, so that no fix reaches the service older than its
device's last. The bodies are made before the clock starts; the clock stops after SECONDS or when
every batch is answered. Prints one line of JSON.
"""

import json
import os
import random
import socket
import sys
import threading
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
    """The connection's requests, as bytes, in the order they are sent."""
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
                out.append(request("\n".join(lines)))
                lines = []
        step += 1
    return out


def request(body):
    data = body.encode()
    head = (
        f"POST /v1/fixes?layer={layer} HTTP/1.1\r\nHost: {base.hostname}:{base.port}\r\n"
        f"Authorization: Bearer {key}\r\nContent-Type: application/x-ndjson\r\n"
        f"Content-Length: {len(data)}\r\n\r\n"
    )
    return head.encode() + data, body.count("\n") + 1


def read_answer(stream):
    """Reads one HTTP/1.1 answer with a Content-Length; returns its status."""
    status = int(stream.readline().split()[1])
    length = 0
    while True:
        line = stream.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    stream.read(length)
    return status


planned = [requests_of(c) for c in range(connections)]
latencies = []
sent_fixes = [0] * connections
failures = []
deadline = None
lock = threading.Lock()


def run(connection):
    sock = socket.create_connection((base.hostname, base.port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    stream = sock.makefile("rb")
    mine = []
    for data, count in planned[connection]:
        if time.perf_counter() > deadline:
            break
        began = time.perf_counter()
        sock.sendall(data)
        status = read_answer(stream)
        mine.append(time.perf_counter() - began)
        if status != 200:
            failures.append(status)
            break
        sent_fixes[connection] += count
    sock.close()
    with lock:
        latencies.extend(mine)


threads = [threading.Thread(target=run, args=(c,)) for c in range(connections)]
began = time.perf_counter()
deadline = began + seconds
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
elapsed = time.perf_counter() - began
latencies.sort()
print(
    json.dumps(
        {
            "devices": devices,
            "connections": connections,
            "batch": batch,
            "fixes": sum(sent_fixes),
            "seconds": round(elapsed, 2),
            "fixes_per_second": round(sum(sent_fixes) / elapsed),
            "p50_ms": round(latencies[len(latencies) // 2] * 1000, 2) if latencies else None,
            "p99_ms": round(latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000, 2) if latencies else None,
            "failures": failures[:5],
        }
    )
)
