"""An MCP stdio server for the soak tests (JSON-RPC 2.0, one message per line); exits on end of stdin.

Tools (every answer echoes the caller's `token` with this process's pid):
  echo     answers at once
  garbage  writes non-JSON lines (and bytes that are not UTF-8) to stdout, then answers
  hang     never answers
  late     answers after `seconds` (longer than the caller's timeout: the answer must be dropped)
FIXTURE_PIDFILE: append "<pid> <META_PROCESS_TOKEN>" to this file.
"""
import json
import os
import sys
import threading
import time

TOKEN = os.environ.get("META_PROCESS_TOKEN", "")
pidfile = os.environ.get("FIXTURE_PIDFILE")
if pidfile:
    with open(pidfile, "a") as f:
        f.write("%d %s\n" % (os.getpid(), TOKEN))

lock = threading.Lock()
out = sys.stdout.buffer
never = threading.Event()


def write(data):
    with lock:
        out.write(data)
        out.flush()


def send(message):
    write((json.dumps(message) + "\n").encode("utf-8"))


TOOLS = [{"name": n, "description": n, "inputSchema": {"type": "object"}} for n in ("echo", "garbage", "hang", "late")]
GARBAGE = [b"this is not json\n", b"{\"jsonrpc\": \"2.0\", \"id\": \n", b"\xff\xfe\xfd not utf-8\n", b"\n",
           b"Traceback (most recent call last):\n"]


def call(msg_id, name, args):
    if name == "hang":
        never.wait()
        return
    if name == "late":
        time.sleep(float(args.get("seconds", 2)))
    if name == "garbage":
        for line in GARBAGE:
            write(line)
    answer = {"token": args.get("token"), "pid": os.getpid(), "tool": name}
    send({"jsonrpc": "2.0", "id": msg_id, "result": {
        "content": [{"type": "text", "text": json.dumps(answer)}], "structuredContent": answer}})


for raw in sys.stdin.buffer:
    line = raw.strip()
    if not line:
        continue
    message = json.loads(line)
    method = message.get("method")
    msg_id = message.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": msg_id, "result": {
            "protocolVersion": message["params"].get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "meta-core-soak", "version": "1.0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": msg_id, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        params = message.get("params", {})
        threading.Thread(target=call, args=(msg_id, params.get("name"), params.get("arguments") or {}),
                         daemon=True).start()
    elif msg_id is not None and method is not None:
        send({"jsonrpc": "2.0", "id": msg_id, "error": {"code": -32601, "message": "no method " + method}})
os._exit(0)
