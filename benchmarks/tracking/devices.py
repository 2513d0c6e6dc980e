"""Resident memory of `geoq serve` per tracked device, and that it stops growing at the cap. Run
by benchmarks/tracking/devices.sh, which starts the service with a tenant cap (--max-devices)
and a short --idle-in-memory.

usage: GEOQ_KEY=KEY GEOQ_PID=PID devices.py BASE_URL CAP IDLE_SECONDS

- active devices: 1,000,000 distinct devices, one fix each inside Pamplona's Sector 2 (a device
  in a feature stays in memory), in NDJSON batches of 10,000 under one tenant whose cap is CAP:
  resident memory after every 100,000 devices posted, the devices accepted, the batches refused.
- idle devices: 200,000 more devices of a second tenant, outside every feature (they leave
  memory IDLE_SECONDS after their last fix and stay in the store): resident memory after
  posting, once the service's sweep has let them go (the allocator keeps most freed pages),
  and after 200,000 other idle devices, which reuse them.
"""

import http.client
import json
import os
import sys
import time
import urllib.parse

base = urllib.parse.urlparse(sys.argv[1])
cap, idle_seconds = int(sys.argv[2]), float(sys.argv[3])
key, pid = os.environ["GEOQ_KEY"], int(os.environ["GEOQ_PID"])
connection = http.client.HTTPConnection(base.hostname, base.port, timeout=120)
BATCH = 10_000
stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 60))


def resident_mib():
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def post(tenant_key, devices, lat, lon):
    body = "\n".join(
        f'{{"device":"{device}","time":"{stamp}","lat":{lat},"lon":{lon},"accuracy":10}}' for device in devices
    )
    headers = {"Content-Type": "application/x-ndjson", "Authorization": f"Bearer {tenant_key}"}
    connection.request("POST", "/v1/fixes", body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    return response.status


def settle():
    time.sleep(1)
    return resident_mib()


start = settle()
rows = []
accepted = refused = 0
began = time.perf_counter()
for first in range(0, 1_000_000, BATCH):
    status = post(key, (f"car-{n:07d}" for n in range(first, first + BATCH)), 42.81, -1.64)
    if status == 200:
        accepted += BATCH
    elif status == 422:
        refused += 1
    else:
        raise SystemExit(f"POST /v1/fixes answered {status}")
    if (first + BATCH) % 100_000 == 0:
        rows.append((first + BATCH, accepted, resident_mib()))
active_seconds = time.perf_counter() - began
at_cap = settle()

idle_key = os.environ["GEOQ_IDLE_KEY"]
for first in range(0, 200_000, BATCH):
    status = post(idle_key, (f"walker-{n:07d}" for n in range(first, first + BATCH)), 42.70, -1.50)
    assert status == 200, status
idle_posted = settle()
# The sweep runs every 15 s: wait for the idle threshold and two sweeps.
time.sleep(idle_seconds + 31)
idle_swept = resident_mib()
# A second wave of as many other idle devices: memory the first left is used again.
for first in range(200_000, 400_000, BATCH):
    status = post(idle_key, (f"walker-{n:07d}" for n in range(first, first + BATCH)), 42.70, -1.50)
    assert status == 200, status
second_wave = settle()

print("| devices posted (one fix each, in Sector 2) | devices accepted | resident memory |")
print("|---:|---:|---:|")
print(f"| 0 | 0 | {start:,.0f} MiB |")
for posted, kept, mib in rows:
    print(f"| {posted:,} | {kept:,} | {mib:,.0f} MiB |")
per_active = (at_cap - start) * 1024 * 1024 / max(accepted, 1)
growth_after_cap = [mib for posted, kept, mib in rows if kept >= cap]
print()
print("| measure | value |")
print("|---|---:|")
print(f"| cap (--max-devices) | {cap:,} |")
print(f"| devices accepted / batches refused at the cap (422) | {accepted:,} / {refused} |")
print(f"| resident memory per active device (in a feature: kept in memory) | {per_active:,.0f} bytes |")
if len(growth_after_cap) > 1:
    print(
        f"| resident memory from reaching the cap to the last batch | {growth_after_cap[0]:,.0f} → "
        f"{growth_after_cap[-1]:,.0f} MiB |"
    )
print(f"| 1,000,000 devices posted in | {active_seconds:,.1f} s |")
print(f"| 200,000 idle devices (outside every feature): after posting | +{idle_posted - at_cap:,.0f} MiB |")
print(
    f"| the same, {idle_seconds:.0f} s + two sweeps later (left memory, kept in the store) | "
    f"{idle_swept - at_cap:+,.0f} MiB |"
)
print(f"| 200,000 more idle devices after the first left memory | {second_wave - at_cap:+,.0f} MiB |")
