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
