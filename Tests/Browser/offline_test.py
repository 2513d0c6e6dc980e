"""The map page offline, in headless chromium: the page's service worker keeps the page, Leaflet
and the falla layer, and when the service cannot be reached (the test stops the server itself:
a real outage, since the worker's fetches are its own and no browser switch stops them) a shared
address opens with the answer last given for it, and a reload still gives the page, the map with
its falla pins and answers for a point never asked before, marked by the "offline, as of HH:MM"
banner. The nearest fallas and the AR labels for that point are computed in the browser from the
kept layer; they are checked against what the service answered for the same point before the
outage (the ten nearest, in order, and three AR overlays). A question neither kept nor
computable is a 503 problem. When the server is back, fresh answers come and the banner goes.
Also: the manifest parses and names its icons, chromium finds the page installable, and a push
message delivered through the DevTools protocol shows a notification whose click (dispatched in
the worker: chromium has no command that clicks a notification) brings the page to the message's
address.

The test starts and stops `geoq serve` itself, on the same port each time (the worker belongs to
the origin): COMMAND is the full command line, with `--port PORT` in it. Its log goes to
SCREENSHOT_DIR/serve.log.

usage: offline_test.py PORT SCREENSHOT_DIR COMMAND...
"""

import datetime
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zoneinfo

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from devtools import DevTools

port, shots, command = sys.argv[1], sys.argv[2], sys.argv[3:]
base = f"http://127.0.0.1:{port}"
os.makedirs(shots, exist_ok=True)
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def api(path):
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return json.load(response)


def reachable():
    try:
        with urllib.request.urlopen(base + "/readyz", timeout=2):
            return True
    except (urllib.error.URLError, ConnectionError, OSError):
        return False


server = None
server_log = open(os.path.join(shots, "serve.log"), "ab")


def start_server():
    global server
    server = subprocess.Popen(command, stdout=server_log, stderr=subprocess.STDOUT)
    for _ in range(240):
        if reachable():
            return
        if server.poll() is not None:
            raise SystemExit(f"geoq serve stopped before it was ready (see {shots}/serve.log)")
        time.sleep(0.25)
    raise SystemExit("geoq serve was not ready after 60 s")


def stop_server():
    global server
    if server is not None:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    server = None


def eventually(condition, seconds=30):
    try:
        WebDriverWait(driver, seconds).until(condition)
        return True
    except TimeoutException:
        return False


def answer_text(d):
    return d.find_element(By.ID, "answer").text


def page_fetch(path, key=None):
    """`path` fetched by the page (through its worker), with the read key `key` if given: status,
    X-Geoq-Offline, the body."""
    return driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        const headers = { Accept: "application/json" };
        if (arguments[1]) headers.Authorization = `Bearer ${arguments[1]}`;
        fetch(arguments[0], { headers })
          .then(async (r) => done([r.status, r.headers.get("X-Geoq-Offline"), await r.json().catch(() => null)]))
          .catch((e) => done([0, null, String(e)]));""",
        path,
        key,
    )


options = Options()
options.binary_location = "/usr/bin/chromium"
for argument in ("--headless=new", "--no-sandbox", "--window-size=1280,900", "--lang=en"):
    options.add_argument(argument)
start_server()
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(driver, 30)
try:
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["notifications"]})

    # The manifest: it parses, names the page, and its icons are served as their types say.
    with urllib.request.urlopen(base + "/manifest.webmanifest", timeout=30) as response:
        manifest_type = response.headers.get("Content-Type", "")
        manifest = json.load(response)
    check(manifest_type.startswith("application/manifest+json"), f"the manifest is {manifest_type}")
    check(
        manifest.get("start_url") == "/" and manifest.get("display") == "standalone" and manifest.get("short_name"),
        f"the manifest starts at / in standalone ({manifest.get('name')!r}, {manifest.get('short_name')!r})",
    )
    icons = manifest.get("icons") or []
    check(len(icons) > 0, f"the manifest names {len(icons)} icon(s)")
    for icon in icons:
        with urllib.request.urlopen(base + icon["src"], timeout=30) as response:
            served = response.headers.get("Content-Type", "")
        check(served.startswith(icon.get("type", "?")), f"the icon {icon['src']} is served as {served}")

    # The first visit: the worker installs, keeps the page's files and the falla layer, and takes
    # the page.
    loaded_at = datetime.datetime.now(datetime.timezone.utc)
    driver.get(base + "/?lang=en")
    check(
        eventually(lambda d: d.execute_script("return !!navigator.serviceWorker.controller;")),
        "the service worker controls the page",
    )
    kept = """const done = arguments[arguments.length - 1];
        const paths = ["/", "/page/map.js", "/page/map.css", "/page/pwa.js", "/assets/leaflet/leaflet.js",
          "/assets/leaflet/leaflet.css", "/assets/leaflet/images/layers.png",
          "/v1/layers?geoq-accept=application%2Fjson", "/v1/layers/fallas?geoq-accept=application%2Fgeo%2Bjson"];
        Promise.all(paths.map((p) => caches.match(p))).then((r) => done(paths.filter((p, i) => !r[i])));"""
    missing = []

    def all_kept(d):
        missing[:] = d.execute_async_script(kept)
        return not missing

    check(eventually(all_kept), f"the page, Leaflet and the layers are kept (missing: {missing})")
    installed = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    errors = [error.get("errorId") for error in installed.get("installabilityErrors", [])]
    check(not errors, f"chromium finds the page installable (errors: {errors})")

    # A shared address answered while the service runs: its answers are kept as they come.
    shared = "/?lat=42.81&lon=-1.64&lang=en"
    driver.get(base + shared)
    sector = api("/v1/park?lat=42.81&lon=-1.64&lang=en")["sector"]["name"]
    check(eventually(lambda d: f"Sector: {sector}" in answer_text(d)), f"online, the shared address names {sector}")
    park_kept = """const done = arguments[arguments.length - 1];
        caches.match("/v1/park?lat=42.810000&lon=-1.640000&lang=en&geoq-accept=application%2Fjson").then((r) => done(!!r));"""
    check(eventually(lambda d: d.execute_async_script(park_kept)), "its parking answer is kept")
    kept_by = datetime.datetime.now(datetime.timezone.utc)

    # The point a click will ask: in Valencia, off the centre of the view, never asked before.
    # Its answers are asked of the service now, while it runs, straight (not through the page).
    view = "map.setView([39.4712, -0.3805], 16, { animate: false });"
    driver.execute_script(view)
    rect = driver.execute_script("const r = $('map').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
    click_x, click_y = int(rect[0] + rect[2] / 2 + 53), int(rect[1] + rect[3] / 2 - 37)
    predicted = driver.execute_script(
        "const p = map.mouseEventToLatLng({ clientX: arguments[0], clientY: arguments[1] });"
        "return [p.lat.toFixed(6), p.lng.toFixed(6)];",
        click_x,
        click_y,
    )
    lat, lon = predicted
    point = f"lat={lat}&lon={lon}"
    nearest_ten = api(f"/v1/nearest?{point}&layer=fallas&n=10")["hits"]
    ar_questions = [
        f"/v1/ar?{point}&heading=0&width=360&height=240&visible-only=true",
        f"/v1/ar?{point}&heading=40&pitch=5&roll=-3&hfov=70&width=1080&height=1920",
        f"/v1/ar?{point}&heading=200&heading-ref=magnetic&declination=1.2&max-distance=600&curvature=true",
    ]
    ar_answers = [api(question) for question in ar_questions]
    fallas = api("/v1/layers/fallas")["features"]
    time_zone = driver.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone;")

    # The outage: the server stops; nothing answers on its port. The shared address opens with
    # the answer last given for it.
    stop_server()
    check(not reachable(), "the server is down")
    driver.get(base + shared)
    check(eventually(lambda d: f"Sector: {sector}" in answer_text(d)), f"offline, the shared address still names {sector}")
    check(
        eventually(lambda d: d.execute_script("return typeof L === 'object' && typeof map === 'object';")),
        "offline, the page and Leaflet load",
    )
    check(
        eventually(lambda d: len(d.find_elements(By.CSS_SELECTOR, '.pin[data-layer="fallas"]')) == len(fallas)),
        f"offline, the {len(fallas)} falla pins are drawn "
        f"({len(driver.find_elements(By.CSS_SELECTOR, '.pin[data-layer=fallas]'))})",
    )
    driver.execute_script(view)
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(click_x, click_y).click()
    actions.perform()
    check(eventually(lambda d: "Nearest fallas" in answer_text(d)), "offline, a click in Valencia is answered")
    asked = driver.execute_script("return lastPoint && [lastPoint.lat.toFixed(6), lastPoint.lon.toFixed(6)];")
    check(asked == predicted, f"the click asked the point the service was asked ({asked} and {predicted})")
    text = answer_text(driver)
    check(
        all(hit["name"] in text for hit in nearest_ten[:5]),
        "the five nearest fallas listed offline are the service's",
    )
    check(f"{round(nearest_ten[0]['distanceMetres'])} m" in text, "at the service's distance")
    # The page's own AR question for the point, as it asked it (the test asks others below).
    resources = driver.execute_script("return performance.getEntriesByType('resource').map((e) => e.name);")
    page_ar = [name[len(base):] for name in resources if name.startswith(base + "/v1/ar?")]
    banner = driver.find_element(By.ID, "offline-banner")
    check(eventually(lambda d: banner.is_displayed(), 10), "the offline banner shows")
    shown = re.fullmatch(r"offline, as of (\d\d):(\d\d)", banner.text)
    zone = zoneinfo.ZoneInfo(time_zone)
    minutes = {
        (loaded_at + datetime.timedelta(minutes=m)).astimezone(zone).strftime("%H:%M")
        for m in range(int((kept_by - loaded_at).total_seconds() // 60) + 2)
    }
    check(
        shown is not None and f"{shown[1]}:{shown[2]}" in minutes,
        f"it reads {banner.text!r}: the time the layer was kept ({sorted(minutes)}, {time_zone})",
    )
    driver.save_screenshot(os.path.join(shots, "offline.png"))

    # The ten nearest computed offline, for the same point: the service's ranking, distances and
    # bearings.
    status, offline, body = page_fetch(f"/v1/nearest?{point}&layer=fallas&n=10")
    check(status == 200 and offline, f"offline, /v1/nearest is answered ({status}) and marked ({offline!r})")
    hits = (body or {}).get("hits", []) if isinstance(body, dict) else []
    check(
        [hit["id"] for hit in hits] == [hit["id"] for hit in nearest_ten],
        f"the ten nearest offline are the service's, in its order ({[h['id'] for h in hits]} and "
        f"{[h['id'] for h in nearest_ten]})",
    )
    check(
        len(hits) == len(nearest_ten)
        and all(
            abs(a["distanceMetres"] - b["distanceMetres"]) <= 0.011
            and abs(a["bearingDegrees"] - b["bearingDegrees"]) <= 0.11
            and a["name"] == b["name"]
            and a["categoryCode"] == b["categoryCode"]
            and a["geoURI"] == b["geoURI"]
            for a, b in zip(hits, nearest_ten)
        ),
        "with the service's names, sections, geo URIs, distances (to 0.01 m) and bearings (to 0.1°)",
    )

    # The AR labels computed offline for the same point: the service's overlay.
    for question, expected in zip(ar_questions, ar_answers):
        status, offline, body = page_fetch(question)
        labels = (body or {}).get("labels", []) if isinstance(body, dict) else []
        same = (
            status == 200
            and body.get("visibleCount") == expected["visibleCount"]
            and [label["id"] for label in labels] == [label["id"] for label in expected["labels"]]
            and all(
                a["visible"] == b["visible"]
                and a["stackLevel"] == b["stackLevel"]
                and abs(a["distance"] - b["distance"]) <= 0.11
                and (a["x"] is None) == (b["x"] is None)
                and (a["x"] is None or (abs(a["x"] - b["x"]) <= 0.11 and abs(a["y"] - b["y"]) <= 0.11))
                for a, b in zip(labels, expected["labels"])
            )
        )
        check(
            same and offline,
            f"offline, {question.split('&', 2)[2]}: {len(labels)} labels, {body.get('visibleCount') if isinstance(body, dict) else None} "
            f"visible, as the service's {len(expected['labels'])} and {expected['visibleCount']}",
        )
    # The page's own AR preview was drawn from the offline answer to its question.
    page_ar = [path for path in page_ar if f"lat={lat}&lon={lon}&" in path]
    check(len(page_ar) > 0, f"the page asked /v1/ar for the clicked point ({page_ar})")
    if page_ar:
        _, _, drawn = page_fetch(page_ar[-1])
        names = [label["name"] for label in drawn.get("labels", []) if label.get("visible")]

        def preview_names(d):
            label = d.find_element(By.ID, "ar-canvas").get_attribute("aria-label") or ""
            return all(name in label for name in names)

        check(names and eventually(preview_names, 10), f"the AR preview names the {len(names)} visible fallas")

    # A question that neither was kept nor can be computed: a problem, in the page's language.
    status, offline, body = page_fetch(f"/v1/park?{point}")
    check(status == 503 and offline is not None, f"offline, an answer never kept is a 503 problem ({status})")
    # What was kept for requests without a key is not given to a request with one (nor the
    # reverse): each key has its own.
    park_path = "/v1/park?lat=42.810000&lon=-1.640000&lang=en"
    check(page_fetch(park_path)[0] == 200, "offline, the kept parking answer is given without a key")
    status, _, _ = page_fetch(park_path, key="another-key")
    check(status == 503, f"and not to a request with a key ({status})")
    status, _, _ = page_fetch(f"/v1/nearest?{point}&layer=fallas&n=10", key="another-key")
    check(status == 503, f"nor is the falla layer kept without a key used for one ({status})")

    # The server is back: the answers are the service's again and the banner goes.
    start_server()
    driver.execute_script(view)
    driver.find_element(By.ID, "ask-centre").click()
    check(eventually(lambda d: not banner.is_displayed()), "back online, the banner goes")
    status, offline, body = page_fetch(f"/v1/nearest?{point}&layer=fallas&n=10")
    check(status == 200 and offline is None, f"back online, /v1/nearest is the service's (offline mark: {offline!r})")
    driver.save_screenshot(os.path.join(shots, "online-again.png"))

    # A push message, delivered as the push service would, after the browser has decrypted it, to
    # the worker once no newer one is on its way in.
    settled = """const done = arguments[arguments.length - 1];
        navigator.serviceWorker.getRegistration().then((r) => done(!!(r && r.active && !r.installing && !r.waiting)));"""
    check(eventually(lambda d: d.execute_async_script(settled)), "the worker is active, none other installing")
    devtools = DevTools(driver.capabilities["goog:chromeOptions"]["debuggerAddress"])
    targets = devtools.send("Target.getTargets")["targetInfos"]
    page = next(t for t in targets if t["type"] == "page" and t["url"].startswith(base))
    page_channel = devtools.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})["sessionId"]
    devtools.send("ServiceWorker.enable", channel=page_channel)
    registered = devtools.event(
        "ServiceWorker.workerRegistrationUpdated",
        lambda p: any(r["scopeURL"] == base + "/" and not r["isDeleted"] for r in p["registrations"]),
    )
    check(registered is not None, "the DevTools protocol names the worker's registration")
    workers = devtools.send("Target.getTargets")["targetInfos"]
    worker = next((t for t in workers if t["type"] == "service_worker" and t["url"] == base + "/sw.js"), None)
    check(worker is not None, "the worker is a DevTools target")
    if registered and worker:
        registration = next(r for r in registered["registrations"] if r["scopeURL"] == base + "/")
        worker_channel = devtools.send("Target.attachToTarget", {"targetId": worker["targetId"], "flatten": True})[
            "sessionId"
        ]
        message = {
            "title": "Ticket ending",
            "body": "Your ticket in Ensanche ends in 10 minutes.",
            "url": "/?ticket=T-1&lat=42.81&lon=-1.64&lang=en",
            "tag": "ticket-T-1",
        }
        shown = devtools.show_push(
            base, page_channel, worker_channel, registration["registrationId"], json.dumps(message))
        expected = {"title": message["title"], "body": message["body"], "tag": message["tag"], "url": base + message["url"]}
        check(shown == [expected], f"the push shows its notification ({shown})")
        devtools.click_notification(worker_channel)
        # The page rewrites its address to the point it asks; the navigation's own is the one.
        navigated = "const n = performance.getEntriesByType('navigation')[0]; return n && n.name;"
        check(
            eventually(lambda d: d.execute_script(navigated) == base + message["url"]),
            f"the click brings the page to the message's address ({driver.execute_script(navigated)})",
        )
        check(eventually(lambda d: "Sector" in answer_text(d)), "and the page answers there")
        closed = devtools.evaluate(worker_channel, "self.registration.getNotifications().then((all) => all.length)")
        check(closed == 0, f"the notification is closed ({closed} left)")
except Exception as error:  # noqa: BLE001 - any error is a failure, reported with the others
    check(False, f"the test stopped: {error!r}")
finally:
    driver.quit()
    stop_server()

print(f"map page offline: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
