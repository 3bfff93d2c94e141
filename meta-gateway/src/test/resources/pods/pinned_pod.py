"""An MCP pod (2025-11-25) whose tool's description is read from a file at each tools/list, for the gateway's tests
of pinned definitions, traces and secrets.

Tools: read (its description is the text of $PIN_DESCRIPTION_FILE) and stable. A call answers the JSON of the
_meta it received, as text. At start it writes "starting with <$PIN_SECRET>" to stderr; a call of "stable" with
{"fail": true} writes the secret to stderr again and exits 3.
"""
import json
import os
import sys


def description():
    with open(os.environ["PIN_DESCRIPTION_FILE"], encoding="utf-8") as f:
        return f.read().strip()


def answer(method, params):
    if method == "initialize":
        return {"protocolVersion": params.get("protocolVersion", "2025-11-25"), "capabilities": {"tools": {}},
                "serverInfo": {"name": "pinned-pod", "version": "1.0.0"}}
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [
            {"name": "read", "description": description(), "inputSchema": {"type": "object"}},
            {"name": "stable", "description": "Never changes", "inputSchema": {"type": "object"},
             "annotations": {"readOnlyHint": True}}]}
    if method == "tools/call":
        if params.get("arguments", {}).get("fail"):
            sys.stderr.write("failing with " + os.environ.get("PIN_SECRET", "") + "\n")
            sys.stderr.flush()
            sys.exit(3)
        return {"content": [{"type": "text", "text": json.dumps(params.get("_meta", {}), sort_keys=True)}]}
    return None


sys.stderr.write("starting with " + os.environ.get("PIN_SECRET", "") + "\n")
sys.stderr.flush()
for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    if "id" not in message or "method" not in message:
        continue
    result = answer(message["method"], message.get("params") or {})
    if result is None:
        reply = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "unknown method"}}
    else:
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": result}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
