"""The map page in headless chromium: the shared address answers in Basque, a click in Valencia
lists the nearest fallas (the same as /v1/nearest answers for that point), the fallas layer is
drawn pin for pin, the section filter narrows the answer, the language switch changes the page's
words, and the page asks nothing outside its own origin. The polygon layers come as vector tiles:
a shared address's first answer weighs at most half what it did when they came whole, its tiles
are drawn, the polygon under the pointer is named, and a pan asks for tiles, never a whole
polygon layer. The layers of hostile_layers.py, whose
names and titles are markup and script, show as text and run nothing; the page works under its
Content-Security-Policy (chromium reports no violation) and that policy is in force.

With reads made private (`geoq serve --private-reads`), GEOQ_TEST_KEY is a key with the read
scope, and GEOQ_TEST_MODE says how the page gets it: `prompt` (the page asks for a key when the
service answers 401, and the test types it in) or `page-key` (the service wrote it into the page
with --page-key, and the page never asks). Either way the rest of the test runs as it does on an
open service.

usage: [GEOQ_TEST_KEY=KEY GEOQ_TEST_MODE=prompt|page-key] map_page_test.py BASE_URL SCREENSHOT_DIR
"""

import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from hostile_layers import POINT_LAYER, POINT_NAMES, POINT_TITLE, POLYGON_NAMES, POLYGON_TITLE

base, shots = sys.argv[1], sys.argv[2]
key = os.environ.get("GEOQ_TEST_KEY")
mode = os.environ.get("GEOQ_TEST_MODE", "open")
os.makedirs(shots, exist_ok=True)
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def api(path, with_key=True):
    headers = {"Authorization": f"Bearer {key}"} if key and with_key else {}
    request = urllib.request.Request(base + path, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def status_without_key(path):
    try:
        api(path, with_key=False)
        return 200
    except urllib.error.HTTPError as error:
        return error.code


def answer_text(driver):
    return driver.find_element(By.ID, "answer").text


def switcher_text(driver):
    return driver.find_element(By.CSS_SELECTOR, ".leaflet-control-layers-overlays").get_attribute("textContent")


def eventually(condition, seconds=30):
    """Whether `condition(driver)` comes true within `seconds`."""
    try:
        WebDriverWait(driver, seconds).until(condition)
        return True
    except TimeoutException:
        return False


options = Options()
options.binary_location = "/usr/bin/chromium"
# The console, where chromium reports what the page's Content-Security-Policy refused.
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
for argument in ("--headless=new", "--no-sandbox", "--window-size=1280,900", "--lang=es"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(driver, 30)
try:
    # The shared address: centred on Pamplona's Ensanche, answered in Basque on load.
    driver.get(base + "/?lat=42.81&lon=-1.64&lang=eu")
    if mode != "open":
        check(status_without_key("/v1/park?lat=42.81&lon=-1.64") == 401, "reads are private: 401 without a key")
    if mode == "prompt":
        # The page asks for the key in its language, and asks again with it.
        form = driver.find_element(By.ID, "key-form")
        check(eventually(lambda d: form.is_displayed()), "the page asks for a key")
        reason = driver.find_element(By.ID, "key-reason").text
        check("gako" in reason, f"in Basque ({reason})")
        driver.find_element(By.ID, "key").send_keys(key)
        driver.find_element(By.CSS_SELECTOR, "#key-form button").click()
        driver.save_screenshot(os.path.join(shots, "private-key-typed.png"))
    wait.until(lambda d: "Sektorea" in answer_text(d))
    park = api("/v1/park?lat=42.81&lon=-1.64&lang=eu")
    text = answer_text(driver)
    check("Ensanche" in text, "the Basque answer names Ensanche")
    check(f"Sektorea: {park['sector']['name']}" in text, f"the sector is the API's ({park['sector']['name']})")
    check(park["regulation"]["message"] in text, "the regulation is the API's Basque message")
    check(driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "eu", "the page is in Basque")
    check(
        eventually(lambda d: "Valentziako fallak" in switcher_text(d)), "the layer switcher names the layers in Basque"
    )
    check(
        driver.find_element(By.ID, "answer").get_attribute("aria-live") == "polite", "the answer panel is aria-live"
    )
    driver.save_screenshot(os.path.join(shots, "pamplona-eu.png"))
    if mode != "open":
        check(not driver.find_element(By.ID, "key-form").is_displayed(), "no key asked for once the page has one")

    # The ticket: the orange zone chosen in the page and 90 minutes give /v1/park's price.
    minutes = driver.find_element(By.ID, "ticket-minutes")
    minutes.clear()
    minutes.send_keys("90")
    Select(driver.find_element(By.ID, "zone")).select_by_value("orange")
    ticket = api("/v1/park?lat=42.81&lon=-1.64&zone=orange&minutes=90&lang=eu")["ticket"]
    check(
        eventually(lambda d: f"Txartela: {ticket['minutes']} min, Prezioa: {ticket['amount']} €" in answer_text(d)),
        f"the orange zone's 90 minutes cost /v1/park's {ticket['amount']} €",
    )
    Select(driver.find_element(By.ID, "zone")).select_by_value("")

    # The keyboard: Enter on the map asks at its centre.
    driver.execute_script("map.setView([42.8169, -1.6440], 16, { animate: false });")
    driver.find_element(By.ID, "map").send_keys(Keys.ENTER)
    check(eventually(lambda d: "42.81690, -1.64400" in answer_text(d)), "Enter on the map asks at its centre")

    # A click on the map in Valencia, centred on the Plaza del Ayuntamiento.
    driver.execute_script("map.setView([39.4699, -0.3763], 16, { animate: false });")
    element = driver.find_element(By.ID, "map")
    ActionChains(driver).move_to_element(element).click().perform()
    wait.until(lambda d: "Falla hurbilenak" in answer_text(d))
    asked = urllib.parse.parse_qs(urllib.parse.urlparse(driver.current_url).query)
    lat, lon = asked["lat"][0], asked["lon"][0]
    check(abs(float(lat) - 39.4699) < 0.002 and abs(float(lon) + 0.3763) < 0.002, f"the click asked near the plaza ({lat}, {lon})")
    nearest = api(f"/v1/nearest?lat={lat}&lon={lon}&layer=fallas&n=5")["hits"]
    text = answer_text(driver)
    check(all(hit["name"] in text for hit in nearest), "the five nearest fallas of /v1/nearest are listed")
    check(f"{round(nearest[0]['distanceMetres'])} m" in text, "with the API's distance")
    check("Aparkalekua (Iruña)" not in text, "no Pamplona parking section in Valencia")
    check("Ospitalea:" in text and "hospital:" not in text, "service types in Basque")
    driver.save_screenshot(os.path.join(shots, "valencia-eu.png"))

    # The map is the layers: the fallas drawn as pins, one per monument the layer endpoint gives.
    fallas = api("/v1/layers/fallas")["features"]
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, '.pin[data-layer="fallas"]')) > 0)
    pins = driver.find_elements(By.CSS_SELECTOR, '.pin[data-layer="fallas"]')
    check(len(pins) == len(fallas), f"{len(pins)} falla pins drawn for the {len(fallas)} of /v1/layers/fallas")
    # The section filter: its choices come from the layer in competition order, and choosing
    # Especial lists the nearest Especial fallas as /v1/nearest answers them.
    sections = Select(driver.find_element(By.ID, "falla-section"))
    codes = [option.get_attribute("value") for option in sections.options if option.get_attribute("value")]
    check(codes[:1] == ["E"] and "1A" in codes, f"the section filter starts with Especial ({codes[:4]}...)")
    sections.select_by_value("E")
    especial = api(f"/v1/nearest?lat={lat}&lon={lon}&layer=fallas&n=5&category=E")["hits"]
    wait.until(lambda d: especial[0]["name"] in answer_text(d) and nearest[0]["name"] not in answer_text(d))
    text = answer_text(driver)
    check(all(hit["name"] in text for hit in especial), "choosing Especial lists the nearest Especial fallas")
    sections.select_by_value("")
    wait.until(lambda d: nearest[0]["name"] in answer_text(d))

    # The language switch: the page's words and the service's answers change.
    button = driver.find_element(By.ID, "ask-centre")
    check(button.text == "Galdetu maparen erdian", "the button speaks Basque")
    Select(driver.find_element(By.ID, "lang")).select_by_value("en")
    wait.until(lambda d: "Nearest fallas" in answer_text(d))
    check(button.text == "Ask at the map's centre", "the button speaks English after the switch")
    check("Falla hurbilenak" not in answer_text(driver), "no Basque heading left")
    check("lang=en" in driver.current_url, "the address carries the new language")
    switcher = switcher_text(driver)
    check(
        "Valencia fallas 2024 (monuments)" in switcher and "Valentziako fallak" not in switcher,
        "the layer switcher names the layers in English",
    )
    driver.save_screenshot(os.path.join(shots, "valencia-en.png"))

    # Layers of a third party whose names and titles are markup and script: each name shows as
    # its characters, in the polygons' labels, the points' tooltips and the layer switcher, and
    # nothing of them runs. The polygons' labels are placed from the tiles in view: the map goes
    # to them first.
    driver.execute_script("map.setView([42.804, -1.682], 15, { animate: false });")

    def labels(d):
        return d.execute_script(
            "return [...document.querySelectorAll('.leaflet-tooltip.sector-label')].map((e) => e.textContent);"
        )

    check(
        eventually(lambda d: all(name in labels(d) for name in POLYGON_NAMES)),
        f"the hostile polygons are labelled with their names as text (missing: "
        f"{[name for name in POLYGON_NAMES if name not in labels(driver)]})",
    )
    # The points' tooltips, opened as pointing at a point opens them.
    open_tooltips = """
        const entry = overlays.find((o) => o.layer.name === arguments[0]);
        const texts = [];
        if (entry) entry.group.eachLayer((drawn) => drawn.eachLayer((feature) => {
            feature.openTooltip();
            texts.push(feature.getTooltip().getElement().textContent);
        }));
        return texts;"""
    check(
        eventually(lambda d: sorted(d.execute_script(open_tooltips, POINT_LAYER)) == sorted(POINT_NAMES)),
        f"the hostile points' tooltips hold their names as text ({driver.execute_script(open_tooltips, POINT_LAYER)})",
    )
    switcher = switcher_text(driver)
    check(POLYGON_TITLE in switcher and POINT_TITLE in switcher, "the layer switcher shows the hostile titles as text")
    elements = driver.execute_script(
        "return [...document.querySelectorAll('.leaflet-tooltip *, .leaflet-control-layers-overlays *')]"
        ".map((e) => e.tagName.toLowerCase()).filter((t) => !['span', 'label', 'div', 'input'].includes(t));"
    )
    check(not elements, f"no element made of a name or a title ({elements})")
    check(driver.execute_script("return typeof window.__pwned;") == "undefined", "no hostile name ran (window.__pwned)")
    driver.save_screenshot(os.path.join(shots, "hostile-names.png"))

    # The page's own resources all work under its Content-Security-Policy: chromium reported no
    # violation. Then a script written into the page is refused (the policy is in force) and
    # reported in the console (so that a violation would have been seen above).
    console = driver.get_log("browser")
    violations = [entry["message"] for entry in console if "Content Security Policy" in entry["message"]]
    check(not violations, f"no Content-Security-Policy violation in the console ({violations[:3]})")
    ran = driver.execute_script(
        "const script = document.createElement('script');"
        "script.textContent = 'window.__inline = 1';"
        "document.head.append(script);"
        "return window.__inline === 1;"
    )
    check(not ran, "a script written into the page is not run")
    reported = []

    def refusal_reported(d):
        reported.extend(entry["message"] for entry in d.get_log("browser"))
        return any("Content Security Policy" in message and "script-src" in message for message in reported)

    check(eventually(refusal_reported, 10), "chromium's console reports the refused script")

    # Nothing outside the page's own origin.
    origin = driver.execute_script("return location.origin;")
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name);")
    foreign = [name for name in resources if not name.startswith(origin + "/")]
    check(len(resources) > 0 and not foreign, f"all {len(resources)} requests went to {origin} (foreign: {foreign})")
    check(any(name.endswith("/assets/leaflet/leaflet.js") for name in resources), "Leaflet came from /assets/leaflet/")

    # The polygon layers come as vector tiles. A shared address's first answer is weighed as
    # benchmarks/page weighs it: every response's transferSize (headers and the body as sent,
    # gzip where compressed) from the navigation on, the browser cache off, until the network has
    # been quiet for half a second. Each address weighs at most half of what the Pamplona address
    # weighed when the layers came whole (docs/BENCHMARKS.md: 474 KiB; Valencia's was 493 KiB).
    polygon_layers = [layer["name"] for layer in api("/v1/layers")["layers"] if layer.get("kind") == "polygon"]
    whole_polygon_layer = {f"/v1/layers/{urllib.parse.quote(name)}" for name in polygon_layers}

    def network_quiet(d):
        return d.execute_script(
            "const r = performance.getEntriesByType('resource');"
            "return r.length > 0 && performance.now() - Math.max(...r.map(e => e.responseEnd)) > 500"
        )

    def requested_paths(d):
        names = d.execute_script("return performance.getEntriesByType('resource').map(e => e.name);")
        return [urllib.parse.urlparse(name).path for name in names]

    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    # The page's service worker would answer from what it kept (a transferSize of next to
    # nothing): the page is weighed as a first visit gets it, from the service.
    driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
    whole = 474
    for address in ("/?lat=42.81&lon=-1.64&lang=es", "/?lat=39.4699&lon=-0.3763&lang=es"):
        driver.get("about:blank")
        driver.get(base + address)
        wait.until(lambda d: d.execute_script("return performance.getEntriesByName('geoq-answer').length > 0"))
        wait.until(network_quiet)
        sizes = driver.execute_script(
            "return [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]"
            ".map(e => e.transferSize);"
        )
        received = sum(sizes) / 1024
        check(
            received <= whole / 2,
            f"{address} arrives in {received:.1f} KiB over {len(sizes)} requests, at most half of {whole} KiB",
        )
        paths = requested_paths(driver)
        check(
            not [path for path in paths if path in whole_polygon_layer],
            f"{address} asks for no whole polygon layer",
        )
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": False})

    # Valencia's tiles are drawn: each polygon layer there has canvas pixels that are not
    # transparent, and Pamplona's layers none.
    painted = driver.execute_script(
        """const painted = {};
        for (const container of document.querySelectorAll('.vector-tiles')) {
            let count = 0;
            for (const canvas of container.querySelectorAll('canvas.leaflet-tile-loaded')) {
                const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
                for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) count++;
            }
            painted[container.dataset.layer] = count;
        }
        return painted;"""
    )
    valencia_layers = ["valencia-barrios", "valencia-districts", "fallas-carpas"]
    check(
        all(painted.get(name, 0) > 0 for name in valencia_layers),
        f"Valencia's polygon layers are drawn from tiles (pixels: {painted})",
    )
    check(painted.get("pamplona-sectors", 0) == 0, "Pamplona's sectors draw nothing in Valencia")
    driver.save_screenshot(os.path.join(shots, "valencia-tiles.png"))

    # The polygon under the pointer is named, as the GeoJSON layers' tooltips named it: a
    # neighbourhood whose box holds the point the pointer is on.
    map_element = driver.find_element(By.ID, "map")
    ActionChains(driver).move_to_element_with_offset(map_element, 40, 30).perform()
    hovered = (
        "const tooltip = document.querySelector('.leaflet-tooltip:not(.sector-label)');"
        "return tooltip && [tooltip.textContent, hoverTooltip.getLatLng().lat, hoverTooltip.getLatLng().lng];"
    )
    check(eventually(lambda d: d.execute_script(hovered), 10), "pointing at a neighbourhood opens its tooltip")
    shown = driver.execute_script(hovered)
    if shown:
        name, lat, lon = shown
        box = f"{lon:.6f},{lat:.6f},{lon:.6f},{lat:.6f}"
        barrios = [f["properties"].get("name") for f in api(f"/v1/layers/valencia-barrios?bbox={box}")["features"]]
        check(name in barrios, f"the tooltip names the neighbourhood there ({name!r} among {barrios})")

    # A pan beyond the tiles in hand asks for tiles, and for no whole polygon layer.
    before = len(requested_paths(driver))
    driver.execute_script("map.panBy([0, 5000], { animate: false });")
    eventually(lambda d: len(requested_paths(d)) > before)
    wait.until(network_quiet)
    after = requested_paths(driver)[before:]
    tiles = [path for path in after if path.startswith("/ogc/collections/") and "/tiles/WebMercatorQuad/" in path]
    check(len(tiles) > 0, f"the pan asked for {len(tiles)} tiles ({tiles[:3]}...)")
    check(
        not [path for path in after if path in whole_polygon_layer],
        f"the pan asked for no whole polygon layer ({after})",
    )
finally:
    driver.quit()

print(f"map page ({mode} reads): {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
