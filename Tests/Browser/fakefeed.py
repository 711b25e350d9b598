"""A stand-in for tweetie-serve that the apply tests drive message by message: it serves the page's
files with the server's security headers, and answers every feed request with an SSE stream fed
from a queue. It records each feed request (path, query, Last-Event-ID) to check reconnections."""

import http.server
import json
import queue
import threading
import urllib.parse

from browser import PAGE

HEADERS = {
    "Content-Security-Policy": "default-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
FILES = {"/": ("index.html", "text/html; charset=utf-8"), "/app.js": ("app.js", "text/javascript; charset=utf-8"),
         "/app.css": ("app.css", "text/css; charset=utf-8"), "/favicon.svg": ("favicon.svg", "image/svg+xml")}
CLOSE = object()


class FakeFeedServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.outbox = queue.Queue()
        self.requests = []
        self.refusals = 0  # the next N feed requests get 503
        self.stopping = False
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def send(self, event, message):
        """Queues one SSE message: `event` (snapshot, change, reset) with the message as data."""
        with self.lock:
            self.outbox.put((event, message["position"], json.dumps(message, ensure_ascii=False)))

    def drop(self):
        """Ends the open stream (the browser then reconnects)."""
        with self.lock:
            self.outbox.put(CLOSE)

    def stop(self):
        self.stopping = True
        self.shutdown()
        self.server_close()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path in FILES:
            name, content_type = FILES[url.path]
            body = (PAGE / name).read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for header, value in HEADERS.items():
                self.send_header(header, value)
            self.end_headers()
            self.wfile.write(body)
        elif url.path.startswith("/feeds/"):
            self.stream(url)
        else:
            self.send_error(404)

    def stream(self, url):
        server = self.server
        with server.lock:
            server.requests.append({"path": url.path, "query": dict(urllib.parse.parse_qsl(url.query)),
                                    "lastEventID": self.headers.get("Last-Event-ID")})
            refuse = server.refusals > 0
            if refuse:
                server.refusals -= 1
            else:
                # The newest stream takes the queue (and what waits in it); older ones, which the
                # page has closed, keep an empty one.
                outbox, server.outbox = server.outbox, queue.Queue()
                while not outbox.empty():
                    server.outbox.put(outbox.get())
                outbox = server.outbox
        if refuse:
            body = b'{"error":"too many clients"}'
            self.send_response(503)
            self.send_header("Retry-After", "1")
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        for header, value in HEADERS.items():
            self.send_header(header, value)
        self.end_headers()
        self.close_connection = True
        self.wfile.write(b"retry: 300\n\n")
        self.wfile.flush()
        while not server.stopping:
            try:
                item = outbox.get(timeout=0.2)
            except queue.Empty:
                continue
            if item is CLOSE:
                return
            event, position, data = item
            self.wfile.write(f"event: {event}\nid: {position}\ndata: {data}\n\n".encode())
            self.wfile.flush()
