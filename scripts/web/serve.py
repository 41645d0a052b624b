#!/usr/bin/env python3
"""Serves the web example on the loopback, cross-origin isolated (the headers
SharedArrayBuffer needs), and takes the page's measurements back.

    python3 scripts/web/serve.py DIR [PORT]

GET serves DIR. PUT /results/NAME (NAME: letters, digits, '-', '_', '.')
writes the body to DIR/results/NAME: the driver's recordings and captures.
"""
import http.server
import os
import re
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_PUT(self):
        match = re.fullmatch(r"/results/([A-Za-z0-9_.-]+)", self.path)
        length = int(self.headers.get("Content-Length", "0"))
        if not match or length > 256 * 1024 * 1024:
            self.send_error(400, "PUT /results/NAME only")
            return
        body = self.rfile.read(length)
        results = os.path.join(self.directory, "results")
        os.makedirs(results, exist_ok=True)
        with open(os.path.join(results, match.group(1)), "wb") as file:
            file.write(body)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def main():
    directory = sys.argv[1]
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 8765
    handler = lambda *a, **k: Handler(*a, directory=directory, **k)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    print(f"serving {directory} on http://127.0.0.1:{port}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
