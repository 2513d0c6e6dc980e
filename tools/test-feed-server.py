#!/usr/bin/env python3
"""A local HTTP server for geoq's feed tests (127.0.0.1 only, standard library only).

Prints the port it listens on as its first line, then serves:
  /files/NAME   a file of the directory given as the first argument (200, Content-Length)
  /empty        an RSS channel without items
  /malformed    200 with broken XML
  /notfound     404;  /error  500
  /slow         answers after 5 seconds
  /truncated    announces 1000 bytes, sends 100 of a feed, closes the connection
  /redirect     302 to /files/zaragoza-type-1.xml
It exits when its standard input closes (the test process released it or died).
"""
import http.server
import os
import socketserver
import sys
import threading
import time

DIRECTORY = sys.argv[1] if len(sys.argv) > 1 else "."
EMPTY = b'<?xml version="1.0"?><rss version="2.0"><channel><title>Sin incidencias</title></channel></rss>'


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/rss+xml"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path.startswith("/files/"):
            name = os.path.basename(path[len("/files/"):])
            try:
                with open(os.path.join(DIRECTORY, name), "rb") as f:
                    self.send(200, f.read())
            except OSError:
                self.send(404, b"not found", "text/plain")
        elif path == "/empty":
            self.send(200, EMPTY)
        elif path == "/malformed":
            self.send(200, b"<rss version='2.0'><channel><item><title>Calle</title></channel>")
        elif path == "/notfound":
            self.send(404, b"not found", "text/plain")
        elif path == "/error":
            self.send(500, b"internal error", "text/plain")
        elif path == "/slow":
            time.sleep(5)
            self.send(200, EMPTY)
        elif path == "/truncated":
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write((EMPTY * 2)[:100])
            self.wfile.flush()
            self.close_connection = True
        elif path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/files/zaragoza-type-1.xml")
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.send(404, b"unknown path", "text/plain")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def exit_when_parent_goes():
    # The test process holds our stdin open; when it closes it (or dies), stop.
    sys.stdin.read()
    os._exit(0)


server = Server(("127.0.0.1", 0), Handler)
threading.Thread(target=exit_when_parent_goes, daemon=True).start()
print(server.server_address[1], flush=True)
server.serve_forever()
