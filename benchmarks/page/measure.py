"""The map page's weight and time to its first answer, measured in headless chromium with the
browser cache off, so that every load fetches everything again.

usage: measure.py BASE_URL LOADS   (run through benchmarks/page/run.sh)

Time to first answer: from the start of navigation to the page's `geoq-answer` mark, set when the
whole answer for the address's point (parking, fallas, services, incidents as they apply) is in
the answer panel. Weight: the bytes the browser received (transferSize: headers and the body as
sent, gzip where the service compressed) and the bodies' decoded sizes, by kind of request.
"""

import statistics
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

base, loads = sys.argv[1], int(sys.argv[2])
addresses = [
    ("Pamplona, parking", "/?lat=42.81&lon=-1.64&lang=es"),
    ("Valencia, fallas and services", "/?lat=39.4699&lon=-0.3763&lang=es"),
]


def kind(name):
    path = name[len(base):].split("?")[0]
    if path.startswith("/assets/leaflet/"):
        return "Leaflet (system package)"
    if path == "/" or path.startswith("/page/"):
        return "page (HTML, JS, CSS)"
    if path.startswith("/v1/layers/"):
        return "layer data (/v1/layers/{name})"
    if path.startswith("/ogc/collections/") and "/tiles/" in path:
        return "layer tiles (/ogc/collections/{name}/tiles/...)"
    if path == "/v1/layers":
        return "layer list"
    return "answers (/v1/park, nearest, services, incidents, ar)"


options = Options()
options.binary_location = "/usr/bin/chromium"
for argument in ("--headless=new", "--no-sandbox", "--window-size=1280,900"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.execute_cdp_cmd("Network.enable", {})
driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
# The page's service worker would answer the loads after the first from what it kept: every load
# is weighed as a first visit gets it, from the service.
driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
try:
    print(f"Each address loaded {loads} times, cache off; times in ms from navigation start.\n")
    print("| address | first answer min / median / max | load event median | requests | received (KiB) | decoded (KiB) |")
    print("|---|---:|---:|---:|---:|---:|")
    weights = {}
    for label, address in addresses:
        answers, loaded = [], []
        for _ in range(loads):
            driver.get("about:blank")
            driver.get(base + address)
            WebDriverWait(driver, 60).until(
                lambda d: d.execute_script("return performance.getEntriesByName('geoq-answer').length > 0")
            )
            # Layers may still be arriving after the answer: wait until the network is quiet.
            WebDriverWait(driver, 60).until(
                lambda d: d.execute_script(
                    "const r = performance.getEntriesByType('resource');"
                    "return r.length > 0 && performance.now() - Math.max(...r.map(e => e.responseEnd)) > 500"
                )
            )
            answers.append(driver.execute_script("return performance.getEntriesByName('geoq-answer')[0].startTime"))
            loaded.append(driver.execute_script("return performance.getEntriesByType('navigation')[0].loadEventEnd"))
            entries = driver.execute_script(
                "return [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]"
                ".map(e => ({name: e.name, transfer: e.transferSize, decoded: e.decodedBodySize}))"
            )
        per_kind = {}
        for e in entries:
            k = kind(e["name"])
            count, transfer, decoded = per_kind.get(k, (0, 0, 0))
            per_kind[k] = (count + 1, transfer + e["transfer"], decoded + e["decoded"])
        weights[label] = per_kind
        total = [sum(v[i] for v in per_kind.values()) for i in range(3)]
        print(
            f"| {label} | {min(answers):.0f} / {statistics.median(answers):.0f} / {max(answers):.0f}"
            f" | {statistics.median(loaded):.0f} | {total[0]} | {total[1] / 1024:.0f} | {total[2] / 1024:.0f} |"
        )
    for label, per_kind in weights.items():
        print(f"\n{label}, by kind of request (the last load):\n")
        print("| kind | requests | received (KiB) | decoded (KiB) |")
        print("|---|---:|---:|---:|")
        for k, (count, transfer, decoded) in sorted(per_kind.items()):
            print(f"| {k} | {count} | {transfer / 1024:.1f} | {decoded / 1024:.1f} |")
finally:
    driver.quit()
