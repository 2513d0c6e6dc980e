"""Reminders from the map page, the whole loop, in headless chromium: the page holding a device
token from the app's link (#token=gqd_…) subscribes the browser and buys the ticket it shows
with "Remind me", the service keeps the subscription and answers the reminder's time, a news
message sent with `geoq push send` reaches the subscription's push service encrypted and signed,
and, delivered to the page's service worker, shows a notification whose click opens the page at
the message's address.

Headless chromium here reaches no real push service (no internet), so the test stands in for
both ends of it: before the page loads, `PushManager.prototype.subscribe` and `getSubscription`
are replaced (`Page.addScriptToEvaluateOnNewDocument`) by a stand-in that returns a subscription
whose endpoint is a push service the test runs on loopback (Python's http.server, answering
201) and whose keys (P-256 and the auth secret) the test made. What reaches that endpoint is
decrypted with PyPI's http_ece as a browser would, its VAPID header verified with py_vapid as a
push service would, and the plaintext handed to the worker as the browser would
(`ServiceWorker.deliverPushMessage`). The service's own answers are the oracle of what the page
shows: GET /v1/park for the query the page posted, GET /v1/push/subscriptions for what it stored.

Also: without a token (or with a key in its place) the button is disabled beside its hint, in
each language, and nothing is posted; a denied notification permission, a token the service
refuses (401) and a service without push (503, a second server whose store has no VAPID key)
say so and change nothing; a device token cannot subscribe another device (403).

The test makes its own store (a VAPID key, a `track` key) in a temporary folder, and starts and
stops `geoq serve` itself on a free loopback port, with the loopback destination allowed
(`--hook-allow-http --hook-allow 127.0.0.0/8`); its log goes to SCREENSHOT_DIR/serve.log. Run
from the repository (the service reads data/layers.json there) with GEOQ_DATA_DIR set, as
`tools/browser-test` (or `tools/browser-test --push`, this test alone) does.

usage: push_test.py SCREENSHOT_DIR GEOQ_BINARY
"""

import base64
import http.server
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from py_vapid.jwt import decode as decode_jwt
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from devtools import DevTools

shots, binary = sys.argv[1], sys.argv[2]
os.makedirs(shots, exist_ok=True)
failures = []
TENANT = "push-test"
DEVICE = "phone-1"
# A point in Pamplona's sector 2 (Ensanches), asked as a shared address.
POINT = "lat=42.8125&lon=-1.6458"


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def geoq(*arguments):
    return subprocess.run([binary, *arguments], check=True, capture_output=True, text=True).stdout.strip()


def call(path, method="GET", credential=None, body=None, origin=None):
    """The service's status and JSON answer, asked straight (not through the page)."""
    headers = {"Accept": "application/json"}
    if credential:
        headers["Authorization"] = f"Bearer {credential}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request((origin or base) + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


# The push service's stand-in: records every POST (path, headers, body) and answers 201 Created,
# as a push service accepting a message does.
received = []


class PushService(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while size := int(self.rfile.readline().strip() or b"0", 16):
                body += self.rfile.read(size)
                self.rfile.readline()
            self.rfile.readline()
        else:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        received.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *arguments):
        pass


folder = tempfile.mkdtemp(prefix="geoq-push-test-")
store = os.path.join(folder, "push.gpkg")
contact = "mailto:push-test@example.org"
public_key = geoq("push", "keys", "--contact", contact, "--store", store)
key = geoq("keys", "add", "--tenant", TENANT, "--scope", "track", "--store", store)

push_service = http.server.ThreadingHTTPServer(("127.0.0.1", 0), PushService)
threading.Thread(target=push_service.serve_forever, daemon=True).start()
push_origin = f"http://127.0.0.1:{push_service.server_address[1]}"

server_log = open(os.path.join(shots, "serve.log"), "ab")
servers = []


def stop_servers():
    for server in servers:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def start_server(store):
    """`geoq serve` on `store` at a free loopback port, allowed to deliver to the stand-in; its
    address once it is ready."""
    port = free_port()
    server = subprocess.Popen(
        [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--store", store,
         "--hook-allow-http", "--hook-allow", "127.0.0.0/8"],
        stdout=server_log, stderr=subprocess.STDOUT,
    )
    servers.append(server)
    for _ in range(240):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2):
                return f"http://127.0.0.1:{port}"
        except (urllib.error.URLError, ConnectionError, OSError):
            if server.poll() is not None:
                stop_servers()
                raise SystemExit(f"geoq serve stopped before it was ready (see {shots}/serve.log)")
            time.sleep(0.25)
    stop_servers()
    raise SystemExit("geoq serve was not ready after 60 s")


base = start_server(store)

# The browser's side of the subscription, made here: its P-256 key pair and auth secret.
browser_key = ec.generate_private_key(ec.SECP256R1())
uncompressed = serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
p256dh = b64url(browser_key.public_key().public_bytes(*uncompressed))
auth = secrets.token_bytes(16)
subscription = {
    "endpoint": f"{push_origin}/push/{secrets.token_hex(8)}",
    "expirationTime": None,
    "keys": {"p256dh": p256dh, "auth": b64url(auth)},
}

# The stand-in for the browser's push subscription, a record of the page's requests other than
# GET (method, address, type, credential, body, status and answer) and of any violation of the
# page's Content-Security-Policy (reminders.js is a script the page adds itself).
STAND_IN = """(() => {
  const made = %s;
  const record = (window.geoqPush = { subscribed: [], asked: 0, posts: [], violations: [] });
  document.addEventListener("securitypolicyviolation", (event) => record.violations.push(event.violatedDirective));
  const encode = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const decode = (text) =>
    Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)).buffer;
  let held = null;
  PushManager.prototype.getSubscription = async function () {
    record.asked++;
    return held;
  };
  PushManager.prototype.subscribe = async function (options) {
    const given = options.applicationServerKey;
    const key = typeof given === "string" ? given : encode(given);
    record.subscribed.push({ userVisibleOnly: options.userVisibleOnly, applicationServerKey: key });
    held = {
      endpoint: made.endpoint, expirationTime: null,
      options: { userVisibleOnly: options.userVisibleOnly, applicationServerKey: decode(key) },
      toJSON: () => JSON.parse(JSON.stringify(made)),
      unsubscribe: async () => { held = null; return true; },
    };
    return held;
  };
  const fetched = window.fetch;
  window.fetch = async function (input, init = {}) {
    const method = (init.method || "GET").toUpperCase();
    if (method === "GET") return fetched.call(this, input, init);
    const headers = new Headers(init.headers || {});
    const post = { method, url: String(input), contentType: headers.get("Content-Type"),
      credential: headers.get("Authorization"), body: init.body ?? null, status: null, answer: null };
    record.posts.push(post);
    const response = await fetched.call(this, input, init);
    post.status = response.status;
    post.answer = await response.clone().json().catch(() => null);
    return response;
  };
})();""" % json.dumps(subscription)

options = Options()
options.binary_location = "/usr/bin/chromium"
for argument in ("--headless=new", "--no-sandbox", "--window-size=1280,900", "--lang=en"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(driver, 30)


def eventually(condition, seconds=30):
    try:
        WebDriverWait(driver, seconds).until(condition)
        return True
    except TimeoutException:
        return False


def answer_text(d):
    return d.find_element(By.ID, "answer").text


def word(name, language="en"):
    """The page's own word (its dictionary, reminders.js's words once it has loaded)."""
    return driver.execute_script("return WORDS[arguments[1]][arguments[0]];", name, language)


def recorded():
    return driver.execute_script("return window.geoqPush;")


def reminder_line(d):
    found = d.find_elements(By.CSS_SELECTOR, "#reminder-answer li")
    return found[0].text if found else None


def open_page(address, origin=None):
    # From a blank page, so that an address differing only in its fragment is a new document.
    driver.get("about:blank")
    driver.get((origin or base) + address)
    wait.until(lambda d: "Sector" in answer_text(d))


def answered(*parts):
    """The page's last /v1/park question for zone blue holding `parts`, once its answer is written
    (a later answer would replace the reminder's line), else None."""

    def question(d):
        return d.execute_script(
            """const park = performance.getEntriesByType("resource")
              .filter((e) => e.name.includes("/v1/park?") && e.name.includes("zone=blue")
                && arguments[0].every((p) => e.name.includes(p)))
              .pop();
            const written = park && park.responseEnd > 0
              && performance.getEntriesByName("geoq-answer").some((m) => m.startTime >= park.responseEnd);
            return written ? park.name : null;""",
            list(parts),
        )

    return question


def press_remind():
    driver.execute_script("document.getElementById('reminder-answer')?.remove();")
    driver.find_element(By.ID, "remind").click()
    return eventually(reminder_line, 30)


try:
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STAND_IN})
    # Every permission the test needs, in one call (a call replaces the origin's grants).
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["notifications"]})
    status, listed = call("/v1/push/subscriptions", credential=key)
    check(status == 200 and listed["subscriptions"] == [], f"the store starts with no subscription ({status})")

    # Without a token: the button is disabled beside its hint, in each language, reminders.js is
    # not loaded, and a click posts nothing.
    open_page(f"/?{POINT}&lang=en")
    button = driver.find_element(By.ID, "remind")
    hint = driver.find_element(By.ID, "remind-hint")
    check(not button.is_enabled() and hint.is_displayed(), "without a token the button is disabled and its hint shown")
    for language in ("en", "es", "eu"):
        Select(driver.find_element(By.ID, "lang")).select_by_value(language)
        check(
            button.text == word("remind", language) and hint.text == word("remindNeedsLink", language),
            f"{language}: the button reads {button.text!r}, its hint {hint.text!r}",
        )
    check(
        button.get_attribute("aria-describedby") == "remind-hint",
        "the hint describes the button (aria-describedby)",
    )
    driver.execute_script("document.getElementById('remind').click();")
    time.sleep(1)
    resources = driver.execute_script("return performance.getEntriesByType('resource').map((e) => e.name);")
    check(not [name for name in resources if name.endswith("/page/reminders.js")], "reminders.js is not loaded")
    check(recorded()["posts"] == [] and recorded()["subscribed"] == [], "nothing is posted nor subscribed")

    # A key in the fragment is never taken: it leaves the address and the button stays disabled.
    open_page(f"/?{POINT}&lang=en#token={key}")
    href = driver.execute_script("return location.href;")
    kept = driver.execute_script("return sessionStorage.getItem('geoq-device-token');")
    check(key not in href and "#" not in href, f"a key in the fragment leaves the address ({href})")
    check(
        kept is None and not driver.find_element(By.ID, "remind").is_enabled(),
        "and is not kept: the button stays disabled",
    )

    # Device tokens: the phone's, and another device's of the same tenant.
    status, given = call(f"/v1/devices/{DEVICE}/token", "POST", key, {"ttl": 3600})
    check(status == 201, f"the service gives {DEVICE} a device token ({status})")
    token = given["token"]
    other = call("/v1/devices/phone-2/token", "POST", key, {"ttl": 3600})[1]["token"]

    # A token the service does not take (401): the page says so and buys nothing.
    open_page(f"/?{POINT}&lang=en#token=gqd_e30.bm90LXNpZ25lZA")
    Select(driver.find_element(By.ID, "zone")).select_by_value("blue")
    wait.until(answered())
    check(press_remind(), "with a token the service refuses, pressing the button answers")
    posts = recorded()["posts"]
    check(
        reminder_line(driver) == word("remindExpired") and [p["status"] for p in posts] == [401]
        and "/v1/push/subscriptions" in posts[0]["url"],
        f"it says the link has expired ({reminder_line(driver)!r}) after one refused POST "
        f"({[(p['url'], p['status']) for p in posts]})",
    )

    # The app's link: the token leaves the address, is kept for the tab and enables the button.
    open_page(f"/?{POINT}&lang=en#token={token}")
    href = driver.execute_script("return location.href;")
    check("#" not in href and token not in href, f"the token leaves the address ({href})")
    kept = driver.execute_script("return sessionStorage.getItem('geoq-device-token');")
    check(kept == token, "it is kept for the tab")
    check(
        driver.find_element(By.ID, "remind").is_enabled()
        and not driver.find_element(By.ID, "remind-hint").is_displayed(),
        "the button is enabled, its hint hidden",
    )

    # The ticket on the page: zone blue, 30 minutes, through the page's controls.
    Select(driver.find_element(By.ID, "zone")).select_by_value("blue")
    minutes = driver.find_element(By.ID, "ticket-minutes")
    minutes.clear()
    minutes.send_keys("30", Keys.TAB)

    check(eventually(answered("minutes=30")), "the page answers /v1/park for zone blue and 30 minutes")
    check("Ticket: " in answer_text(driver), "and shows the ticket")
    shown_query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(answered("minutes=30")(driver)).query))

    # A denied notification permission: said, and nothing posted.
    driver.execute_cdp_cmd(
        "Browser.setPermission", {"origin": base, "permission": {"name": "notifications"}, "setting": "denied"}
    )
    check(press_remind(), "with notifications denied, pressing the button answers")
    check(
        reminder_line(driver) == word("remindDenied") and recorded()["posts"] == [] and recorded()["subscribed"] == [],
        f"it says notifications are not allowed ({reminder_line(driver)!r}), posting and subscribing nothing",
    )
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["notifications"]})

    # "Remind me": subscribed with the service's key, the subscription given to the service, the
    # ticket bought.
    check(press_remind(), "with the token and the permission, pressing the button answers")
    line = reminder_line(driver)
    state = recorded()
    check(
        state["subscribed"] == [{"userVisibleOnly": True, "applicationServerKey": public_key}],
        f"the browser is subscribed once, user-visible, with the service's VAPID key ({state['subscribed']})",
    )
    posts = state["posts"]
    check(len(posts) == 2, f"the page made two POSTs ({[(p['url'], p['status']) for p in posts]})")
    if len(posts) == 2:
        subscribe, park = posts
        check(
            subscribe["url"] == "/v1/push/subscriptions" and subscribe["status"] == 201
            and subscribe["contentType"] == "application/json" and subscribe["credential"] == f"Bearer {token}"
            and json.loads(subscribe["body"]) == {"subscription": subscription, "topics": ["news"]},
            "POST /v1/push/subscriptions with the token, as JSON, the subscription and topics [news]: "
            f"{subscribe['status']}",
        )
        posted = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(park["url"]).query))
        check(
            urllib.parse.urlsplit(park["url"]).path == "/v1/park" and park["status"] == 201
            and park["credential"] == f"Bearer {token}" and park["body"] is None and park["contentType"] is None,
            f"POST /v1/park with the token and no body: {park['status']}",
        )
        same = {name: posted.get(name) for name in ("lat", "lon", "zone", "minutes", "euros", "lang")}
        check(
            same == {name: shown_query.get(name) for name in same}
            and posted.get("reminder") == "10" and posted.get("at"),
            f"for the page's own question ({shown_query}), at {posted.get('at')}, reminder 10 ({posted})",
        )
        bought = park["answer"] or {}
        check(
            bought.get("push", {}).get("device") == DEVICE and bought["push"].get("subscriptions") == 1
            and bought["push"].get("messages") == 1,
            f"the service schedules one message for {DEVICE}'s one subscription ({bought.get('push')})",
        )
        # The oracle: the service's answer to the same question, asked with GET.
        status, oracle = call("/v1/park?" + urllib.parse.urlencode(posted))
        reminder_at = (oracle.get("reminders") or [{}])[0].get("at", "")
        # The answer's time is the city's (its own offset): HH:MM as written, and the day of the
        # month too when the reminder is not on the day the ticket was bought.
        other_day = reminder_at[:10] != posted["at"][:10]
        check(
            status == 200 and reminder_at == (bought.get("reminders") or [{}])[0].get("at")
            and line is not None and line.startswith(word("remindAt") + " ") and line.endswith(" " + reminder_at[11:16])
            and (not other_day or str(int(reminder_at[8:10])) in line[len(word("remindAt")):-5]),
            f"the page reads {line!r}: GET /v1/park's reminder at {reminder_at}",
        )
    status, listed = call("/v1/push/subscriptions", credential=key)
    stored = listed.get("subscriptions", [])
    check(
        status == 200 and len(stored) == 1 and stored[0]["endpoint"] == subscription["endpoint"]
        and stored[0]["device"] == DEVICE and stored[0]["topics"] == ["news"],
        f"the service lists the subscription for {DEVICE} with topics [news] ({stored})",
    )
    check(recorded()["violations"] == [], f"no Content-Security-Policy violation ({recorded()['violations']})")
    driver.save_screenshot(os.path.join(shots, "reminder-set.png"))

    # A second press reuses the browser's subscription, and the service keeps one.
    check(press_remind(), "a second press answers")
    check(
        len(recorded()["subscribed"]) == 1 and recorded()["asked"] >= 2,
        f"it reuses the subscription (subscribe called {len(recorded()['subscribed'])} time(s))",
    )
    check(len(call("/v1/push/subscriptions", credential=key)[1]["subscriptions"]) == 1, "the service still lists one")

    # Another device's token cannot subscribe for this one.
    status, refused = call(
        "/v1/push/subscriptions", "POST", other, {"subscription": subscription, "device": DEVICE, "topics": ["news"]}
    )
    check(status == 403, f"phone-2's token cannot subscribe {DEVICE} ({status})")

    # News for the topic, sent as an operator does; it opens the ticket's place when clicked, as a
    # reminder does (the reminder itself falls due 10 minutes before the ticket ends, after the
    # test), at an address made as the service makes a reminder's.
    ticket = bought["push"]["ticket"]
    place = bought["query"]
    url = f"/?lat={place['latitude']}&lon={place['longitude']}&ticket={ticket}&lang=en"
    before = len(received)
    geoq("push", "send", "--topic", "news", "--tenant", TENANT, "--url", url, "--store", store, "Estafeta cerrada")
    deadline = time.time() + 15
    while len(received) == before and time.time() < deadline:
        time.sleep(0.1)
    check(
        len(received) == before + 1,
        f"the push service's stand-in receives one POST within 15 s ({len(received) - before})",
    )
    message = received[-1] if len(received) > before else {"path": "", "headers": {}, "body": b""}
    headers = message["headers"]
    check(
        message["path"] == urllib.parse.urlsplit(subscription["endpoint"]).path
        and headers.get("content-encoding") == "aes128gcm" and headers.get("ttl"),
        f"at the subscription's endpoint, aes128gcm, with a TTL ({message['path']}, "
        f"{headers.get('content-encoding')}, {headers.get('ttl')})",
    )
    authorization = headers.get("authorization", "")
    try:
        verified = bool(Vapid02.verify(authorization))
        parts = dict(p.split("=", 1) for p in authorization.split(" ", 1)[1].split(","))
        claims = decode_jwt(parts["t"], parts["k"])
    except Exception as error:  # noqa: BLE001 - a header py_vapid cannot read is a failure
        verified, parts, claims = False, {}, {"error": repr(error)}
    check(
        verified and parts.get("k") == public_key and claims.get("aud") == push_origin and claims.get("sub") == contact,
        f"py_vapid verifies its VAPID header, the service's key, aud {claims.get('aud')}, sub {claims.get('sub')}",
    )
    try:
        plaintext = http_ece.decrypt(message["body"], private_key=browser_key, auth_secret=auth, version="aes128gcm")
        payload = json.loads(plaintext)
    except Exception as error:  # noqa: BLE001 - a body http_ece cannot decrypt is a failure
        plaintext, payload = b"", {"error": repr(error)}
    check(
        payload.get("body") == "Estafeta cerrada" and payload.get("url") == url and payload.get("title"),
        f"http_ece decrypts it for the test's keys: {payload}",
    )

    # The decrypted message handed to the page's worker, as the browser would.
    devtools = DevTools(driver.capabilities["goog:chromeOptions"]["debuggerAddress"])
    targets = devtools.send("Target.getTargets")["targetInfos"]
    page = next(t for t in targets if t["type"] == "page" and t["url"].startswith(base))
    page_channel = devtools.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})["sessionId"]
    devtools.send("ServiceWorker.enable", channel=page_channel)
    registered = devtools.event(
        "ServiceWorker.workerRegistrationUpdated",
        lambda p: any(r["scopeURL"] == base + "/" and not r["isDeleted"] for r in p["registrations"]),
    )
    worker = next(
        (t for t in devtools.send("Target.getTargets")["targetInfos"]
         if t["type"] == "service_worker" and t["url"] == base + "/sw.js"),
        None,
    )
    check(registered is not None and worker is not None, "the worker's registration and target are found")
    if registered and worker and plaintext:
        registration = next(r for r in registered["registrations"] if r["scopeURL"] == base + "/")
        worker_channel = devtools.send("Target.attachToTarget", {"targetId": worker["targetId"], "flatten": True})[
            "sessionId"
        ]
        shown = devtools.show_push(
            base, page_channel, worker_channel, registration["registrationId"], plaintext.decode())
        expected = {"title": payload["title"], "body": payload["body"], "tag": payload["tag"], "url": base + url}
        check(shown == [expected], f"the worker shows the notification ({shown})")
        devtools.click_notification(worker_channel)
        navigated = "const n = performance.getEntriesByType('navigation')[0]; return n && n.name;"
        check(
            eventually(lambda d: d.execute_script(navigated) == base + url),
            f"the click opens the page at the message's address ({driver.execute_script(navigated)})",
        )
        sector = bought.get("sector", {}).get("name", "?")
        check(
            eventually(lambda d: f"Sector: {sector}" in answer_text(d)),
            f"which answers for the ticket's place ({sector})",
        )
        check(
            eventually(lambda d: d.execute_script("return typeof WORDS.en.ticketNote === 'string';"))
            and eventually(lambda d: word("ticketNote") in answer_text(d), 10),
            "and says it is the ticket's reminder",
        )
        check(recorded()["violations"] == [], f"nor in the page opened so ({recorded()['violations']})")
        driver.save_screenshot(os.path.join(shots, "opened-from-notification.png"))

    # A service whose store has no VAPID key has no push (503): the page says so, posting nothing.
    bare_store = os.path.join(folder, "no-push.gpkg")
    bare_key = geoq("keys", "add", "--tenant", TENANT, "--scope", "track", "--store", bare_store)
    bare = start_server(bare_store)
    given = call(f"/v1/devices/{DEVICE}/token", "POST", bare_key, {"ttl": 3600}, bare)[1]
    check(call("/v1/push/key", origin=bare)[0] == 503, "a service without a VAPID key answers /v1/push/key 503")
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": bare, "permissions": ["notifications"]})
    open_page(f"/?{POINT}&lang=en#token={given['token']}", bare)
    Select(driver.find_element(By.ID, "zone")).select_by_value("blue")
    wait.until(answered())
    check(press_remind(), "there, pressing the button answers")
    check(
        reminder_line(driver) == word("remindUnavailable") and recorded()["posts"] == [],
        f"it says the service has no reminders ({reminder_line(driver)!r}), posting nothing",
    )
except Exception as error:  # noqa: BLE001 - any error is a failure, reported with the others
    check(False, f"the test stopped: {error!r}")
finally:
    driver.quit()
    stop_servers()
    push_service.shutdown()
    shutil.rmtree(folder, ignore_errors=True)

print(f"push reminders: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
