"""The browser's own DevTools connection, for what chromedriver's commands cannot do: the
ServiceWorker domain's events (a registration's id) and evaluating in the worker. Shared by the
browser tests (offline_test.py, push_test.py), which import it from their own folder."""

import json
import time
import urllib.request

import websocket


class DevTools:
    """The browser's own DevTools connection, for what chromedriver's commands cannot do: the
    ServiceWorker domain's events (a registration's id) and evaluating in the worker."""

    def __init__(self, address):
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=10) as response:
            url = json.load(response)["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(url, timeout=30, suppress_origin=True)
        self.serial = 0
        self.events = []

    def send(self, method, params=None, channel=None):
        self.serial += 1
        message = {"id": self.serial, "method": method, "params": params or {}}
        if channel:
            message["sessionId"] = channel
        self.socket.send(json.dumps(message))
        while True:
            reply = json.loads(self.socket.recv())
            if reply.get("id") == self.serial:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def event(self, method, accept, seconds=15):
        deadline = time.time() + seconds
        while True:
            for event in self.events:
                if event.get("method") == method and accept(event["params"]):
                    return event["params"]
            if time.time() > deadline:
                return None
            self.socket.settimeout(max(0.1, deadline - time.time()))
            try:
                self.events.append(json.loads(self.socket.recv()))
            except websocket.WebSocketTimeoutException:
                return None
            finally:
                self.socket.settimeout(30)

    def evaluate(self, channel, expression):
        result = self.send(
            "Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}, channel
        )
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"].get("text"))
        return result["result"].get("value")

    def show_push(self, base, page_channel, worker_channel, registration_id, data, seconds=10):
        """Delivers `data` (a push message's payload as the browser decrypts it) to the page's
        worker as a push service would, and returns the notifications the worker then shows
        (title, body, tag, url), once there is one or after `seconds`."""
        self.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": base, "registrationId": registration_id, "data": data},
            page_channel,
        )
        shown = None
        for _ in range(int(seconds / 0.25)):
            shown = self.evaluate(
                worker_channel,
                "self.registration.getNotifications().then((all) => all.map((n) => "
                "({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url })))",
            )
            if shown:
                break
            time.sleep(0.25)
        return shown

    def click_notification(self, worker_channel):
        """Hands the worker the event a click on its notification brings: chromium has no
        DevTools command that clicks a notification."""
        self.evaluate(
            worker_channel,
            "self.registration.getNotifications().then(([n]) => "
            "{ self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n })); return true; })",
        )
