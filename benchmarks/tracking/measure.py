"""Arrival events over HTTP: fixes per second through POST /v1/fixes, and the time from a fix's
request to its webhook's arrival. Run by benchmarks/tracking/run.sh.

usage: GEOQ_KEY=KEY measure.py BASE_URL

KEY: a key of the service's store with the track and hooks scopes (run.sh makes one).

Fixes per second on two layers: the Pamplona sectors (3 polygons) and the Valencia census
sections (589), devices on random walks in each layer's city.
"""

import http.client
import http.server
import json
import os
import random
import statistics
import sys
import threading
import time
import urllib.parse

base = urllib.parse.urlparse(sys.argv[1])
arrivals = {}
arrived = threading.Condition()


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        now = time.perf_counter()
        event = json.loads(body)
        with arrived:
            arrivals.setdefault(event["device"], now)
            arrived.notify_all()
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
threading.Thread(target=receiver.serve_forever, daemon=True).start()
connection = http.client.HTTPConnection(base.hostname, base.port)


key = os.environ["GEOQ_KEY"]


def post(path, body, credential=None):
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {credential or key}"}
    connection.request("POST", path, body=body, headers=headers)
    response = connection.getresponse()
    return response.status, response.read()


def fix(device, t, lat, lon):
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(round((t % 1) * 1000)) % 1000:03d}Z"
    return json.dumps({"device": device, "time": stamp, "lat": lat, "lon": lon, "accuracy": 10})


# Fixes a little in the past: the service refuses those ahead of its clock or past the retention.
start_time = int(time.time()) - 600


def fixes_per_second(layer, south, west, height, width):
    """10,000 devices, 30 steps each, in NDJSON batches of 1,000, on `layer`."""
    rng = random.Random(2026)
    devices = [(f"{layer}-{i}", south + rng.random() * height, west + rng.random() * width) for i in range(10_000)]
    batches = []
    for step in range(30):
        lines = []
        for i, (name, lat, lon) in enumerate(devices):
            lat += (rng.random() - 0.5) * 0.0002
            lon += (rng.random() - 0.5) * 0.0002
            devices[i] = (name, lat, lon)
            lines.append(fix(name, start_time + step, lat, lon))
        batches += ["\n".join(lines[k : k + 1000]) for k in range(0, len(lines), 1000)]
    began = time.perf_counter()
    for body in batches:
        status, _ = post(f"/v1/fixes?layer={layer}", body)
        assert status == 200, status
    return sum(body.count("\n") + 1 for body in batches) / (time.perf_counter() - began)


throughput = [
    ("Pamplona sectors", fixes_per_second("pamplona-sectors", 42.795, -1.66, 0.03, 0.04)),
    ("Valencia census sections", fixes_per_second("valencia-census-sections", 39.43, -0.41, 0.07, 0.08)),
]

def phone_requests_per_second(credential, device):
    """2,000 requests of one fix each from one phone, with `credential`."""
    began = time.perf_counter()
    for i in range(2000):
        status, _ = post("/v1/fixes", fix(device, start_time + 200 + i * 0.1, 42.81, -1.64), credential)
        assert status == 200, status
    return 2000 / (time.perf_counter() - began)


status, body = post("/v1/devices/phone-1/token", "{}")
assert status == 201, status
token = json.loads(body)["token"]
with_key = phone_requests_per_second(key, "phone-2")
with_token = phone_requests_per_second(token, "phone-1")

# Fix to webhook: one hook for `enter`, then new devices inside Sector 2, each with two fixes
# 5 s apart (an enter needs a run of fixes): timed from the second, the one that makes the enter.
def fix_to_arrival(url, prefix):
    """Milliseconds from the request of each new device's second fix to its event's arrival,
    sorted, through a hook for `enter` at `url` (deleted again)."""
    status, body = post("/v1/hooks", json.dumps({"url": url, "events": ["enter"]}))
    assert status == 201, (status, body)
    hook = json.loads(body)["id"]
    latencies = []
    for i in range(500):
        device = f"{prefix}-{i}"
        post("/v1/fixes", fix(device, start_time + 100, 42.81, -1.64))
        sent = time.perf_counter()
        post("/v1/fixes", fix(device, start_time + 105, 42.81, -1.64))
        with arrived:
            arrived.wait_for(lambda: device in arrivals, timeout=10)
        if device in arrivals:
            latencies.append((arrivals[device] - sent) * 1000)
    connection.request("DELETE", f"/v1/hooks/{hook}", headers={"Authorization": f"Bearer {key}"})
    connection.getresponse().read()
    return sorted(latencies)


def read_reply(stream):
    """One RESP reply from a socket file: strings, integers, arrays (nil as None)."""
    line = stream.readline()[:-2]
    kind, rest = line[:1], line[1:]
    if kind in (b"+", b":"):
        return rest.decode()
    if kind == b"-":
        raise RuntimeError(rest.decode())
    if kind == b"$":
        return None if int(rest) < 0 else stream.read(int(rest) + 2)[:-2].decode()
    if kind in (b"*", b">"):
        return None if int(rest) < 0 else [read_reply(stream) for _ in range(int(rest))]
    raise RuntimeError(f"not RESP: {line!r}")


def read_stream(port, name):
    """Notes the arrival of each entry of stream `name` (XREAD BLOCK), as the receiver does."""
    import socket

    sock = socket.create_connection(("127.0.0.1", port))
    stream = sock.makefile("rb")
    last = "$"
    while True:
        words = ["XREAD", "BLOCK", "0", "STREAMS", name, last]
        sock.sendall(f"*{len(words)}\r\n".encode() + b"".join(f"${len(w)}\r\n{w}\r\n".encode() for w in words))
        for _, entries in read_reply(stream):
            for entry_id, fields in entries:
                now = time.perf_counter()
                event = json.loads(dict(zip(fields[::2], fields[1::2]))["body"])
                last = entry_id
                with arrived:
                    arrivals.setdefault(event["device"], now)
                    arrived.notify_all()


latencies = fix_to_arrival(f"http://127.0.0.1:{receiver.server_port}/hook", "latency")
# The same through a Redis stream, when run.sh started a Redis server.
redis_port = os.environ.get("GEOQ_REDIS_PORT")
if redis_port:
    threading.Thread(target=read_stream, args=(int(redis_port), "bench"), daemon=True).start()
    time.sleep(0.2)
    streamed = fix_to_arrival(f"redis://127.0.0.1:{redis_port}?stream=bench", "streamed")
print("| measure | value |")
print("|---|---:|")
for label, rate in throughput:
    print(f"| fixes through POST /v1/fixes, {label} (batches of 1,000, one connection) | {rate:,.0f} fixes/s |")
print(f"| one phone's single-fix requests with the tenant's key (one connection) | {with_key:,.0f} req/s |")
print(f"| the same with the phone's device token | {with_token:,.0f} req/s ({with_token / with_key:.2f} of the key's) |")
print(f"| fix to webhook, p50 | {statistics.median(latencies):.2f} ms |")
print(f"| fix to webhook, p99 | {latencies[int(len(latencies) * 0.99) - 1]:.2f} ms |")
print(f"| webhooks received | {len(latencies)} of 500 |")
if redis_port:
    print(f"| fix to Redis stream (XADD, read with XREAD BLOCK), p50 | {statistics.median(streamed):.2f} ms |")
    print(f"| fix to Redis stream, p99 | {streamed[int(len(streamed) * 0.99) - 1]:.2f} ms |")
    print(f"| stream entries received | {len(streamed)} of 500 |")
