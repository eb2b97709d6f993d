#!/usr/bin/env python3
"""A stand-in for Neural Network Console's API and its S3 storage, for the `nncli upload` test only.

Listens on 127.0.0.1 (an ephemeral port, written to PORT_FILE), answers
GET /v1/misc/credential with temporary credentials for s3://test-bucket/uploads/user1 (or an error when the
token is 'bad-token'), stores PUT bodies under OUT_DIR and logs every request to OUT_DIR/requests.log.
It stops by itself after the PUT, after MAX_REQUESTS requests, or after TIMEOUT seconds."""
import http.server
import json
import os
import sys
import threading
import urllib.parse

port_file, out_dir = sys.argv[1], sys.argv[2]
timeout = float(sys.argv[3]) if len(sys.argv) > 3 else 30.0
MAX_REQUESTS = 4
state = {"requests": 0}


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def record(self, line):
        with open(os.path.join(out_dir, "requests.log"), "a") as f:
            f.write(line + "\n")

    def finish_request_count(self, done=False):
        state["requests"] += 1
        if done or state["requests"] >= MAX_REQUESTS:
            threading.Thread(target=self.server.shutdown, daemon=True).start()

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        self.record("GET %s %s" % (url.path, " ".join("%s=%s" % (k, ",".join(v)) for k, v in sorted(query.items()))))
        if url.path != "/v1/misc/credential":
            reply, status = {"message": "not found"}, 404
        elif query.get("encrypted_text") == ["bad-token"]:
            reply, status = {"message": "invalid token"}, 200
        else:
            reply, status = {"upload_path": "s3://test-bucket/uploads/user1", "access_key_id": "AKIDTEST",
                             "secret_access_key": "SECRETTEST", "session_token": "SESSIONTEST"}, 200
        body = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.finish_request_count(done=status != 200 or "upload_path" not in reply)

    def do_PUT(self):
        length = int(self.headers.get("Content-Length", "0"))
        data = self.rfile.read(length)
        auth = self.headers.get("Authorization", "")
        self.record("PUT %s bytes=%d auth=%s token=%s" % (self.path, len(data), auth.split(",")[0],
                                                          self.headers.get("x-amz-security-token", "")))
        with open(os.path.join(out_dir, "uploaded.tar"), "wb") as f:
            f.write(data)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()
        self.finish_request_count(done=True)


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
threading.Timer(timeout, lambda: threading.Thread(target=server.shutdown, daemon=True).start()).start()
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
server.server_close()
os._exit(0)
