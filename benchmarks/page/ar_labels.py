"""The AR view's time to its first labels, in headless chromium as a phone: from the tap on the
AR button to the first label over the camera's picture (a MutationObserver on the labels' layer),
with the position at Valencia's Plaza del Ayuntamiento, the absolute-orientation sensor facing
40 degrees and chromium's fake camera. Each load is a fresh page with the browser cache and the
service worker bypassed, so that the camera, the sensors and the first /v1/ar answer are all in
the time.

usage: ar_labels.py BASE_URL LOADS   (run through benchmarks/page/run.sh)
"""

import math
import statistics
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

base, loads = sys.argv[1], int(sys.argv[2])
PLAZA = (39.4699, -0.3763)


def quaternion(alpha, beta, gamma):
    """The DeviceOrientation spec's Z-X'-Y'' angles as the unit quaternion chromium's sensors carry."""
    a, b, g = (math.radians(v) / 2 for v in (alpha, beta, gamma))
    cx, cy, cz = math.cos(b), math.cos(g), math.cos(a)
    sx, sy, sz = math.sin(b), math.sin(g), math.sin(a)
    return {"x": sx * cy * cz - cx * sy * sz, "y": cx * sy * cz + sx * cy * sz,
            "z": cx * cy * sz + sx * sy * cz, "w": cx * cy * cz - sx * sy * sz}


options = Options()
options.binary_location = "/usr/bin/chromium"
for argument in ("--headless=new", "--no-sandbox", "--window-size=412,915",
                 "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 412, "height": 915, "deviceScaleFactor": 2.625, "mobile": True,
        "screenOrientation": {"type": "portraitPrimary", "angle": 0}})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    driver.execute_cdp_cmd("Browser.grantPermissions",
                           {"origin": base, "permissions": ["geolocation", "videoCapture", "sensors"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                           {"latitude": PLAZA[0], "longitude": PLAZA[1], "accuracy": 10})
    times = []
    for _ in range(loads):
        driver.get("about:blank")
        driver.get(base + "/?lang=es")
        WebDriverWait(driver, 60).until(lambda d: d.execute_script("return document.readyState === 'complete'"))
        driver.execute_cdp_cmd("Emulation.setSensorOverrideEnabled", {"type": "absolute-orientation", "enabled": True})
        driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {
            "type": "absolute-orientation", "reading": {"quaternion": quaternion(320, 85, 0)}})
        button = driver.find_element(By.ID, "ar-open")
        driver.execute_script(
            """arguments[0].scrollIntoView();
            window.__firstLabel = null;
            // The view makes its labels' layer when it opens: watch the whole document.
            new MutationObserver((changes, observer) => {
                if (document.querySelector('#ar-labels .ar-label')) {
                    window.__firstLabel = performance.now();
                    observer.disconnect();
                }
            }).observe(document.body, {childList: true, subtree: true});
            arguments[0].addEventListener('click', () => { window.__tapped = performance.now(); }, {capture: true, once: true});""",
            button)
        button.click()
        WebDriverWait(driver, 60).until(lambda d: d.execute_script("return window.__firstLabel !== null"))
        times.append(driver.execute_script("return window.__firstLabel - window.__tapped"))
        driver.execute_cdp_cmd("Emulation.setSensorOverrideEnabled", {"type": "absolute-orientation", "enabled": False})
    print(f"\nThe AR view, {loads} times: from the tap to the first label over the camera (ms).\n")
    print("| min | median | max |")
    print("|---:|---:|---:|")
    print(f"| {min(times):.0f} | {statistics.median(times):.0f} | {max(times):.0f} |")
finally:
    driver.quit()
