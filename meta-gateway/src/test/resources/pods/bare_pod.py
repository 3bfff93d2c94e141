#!/usr/bin/env python3
"""A bare JSON-RPC 2.0 tool server: it answers tools/call and nothing else (no initialize, no tools/list).

Each request line gets {"jsonrpc","id","result"} for tools/call, an error -32601 for any other method that has an
id, and no answer at all for a notification. Tools: "add" answers a plain object ({"sum": a + b}); "shout" answers a
whole CallToolResult; "fail" answers a JSON-RPC error.

Environment: FIXTURE_PID_DIR (writes there a file named by its pid holding the line
"<pid> <META_PROCESS_TOKEN>"), FIXTURE_RECORD (appends every line read from stdin).
"""
import json
import os
import sys


def answer(message_id, result=None, error=None):
    reply = {"jsonrpc": "2.0", "id": message_id}
    if error is not None:
        reply["error"] = error
    else:
        reply["result"] = result
    sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def call(message_id, params):
    name = params.get("name")
    arguments = params.get("arguments") or {}
    if name == "add":
        answer(message_id, {"sum": arguments.get("a", 0) + arguments.get("b", 0)})
    elif name == "shout":
        text = str(arguments.get("text", "")).upper() + "!"
        answer(message_id, {"content": [{"type": "text", "text": text}], "structuredContent": {"shouted": text},
                            "isError": False})
    elif name == "fail":
        answer(message_id, error={"code": -32000, "message": "fail: " + str(arguments.get("why", "no reason"))})
    else:
        answer(message_id, error={"code": -32602, "message": "unknown tool " + str(name)})


def main():
    pid_dir = os.environ.get("FIXTURE_PID_DIR")
    if pid_dir:
        with open(os.path.join(pid_dir, str(os.getpid())), "w") as pid_file:
            pid_file.write("%d %s\n" % (os.getpid(), os.environ.get("META_PROCESS_TOKEN", "")))
    record = os.environ.get("FIXTURE_RECORD")
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if record:
            with open(record, "a", encoding="utf-8") as f:
                f.write(line + "\n")
        message = json.loads(line)
        if "id" not in message:
            continue
        if message.get("method") == "tools/call":
            call(message["id"], message.get("params") or {})
        elif "method" in message:
            answer(message["id"], error={"code": -32601, "message": "method not found: " + message["method"]})


if __name__ == "__main__":
    main()
