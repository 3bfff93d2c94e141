#!/usr/bin/env python3
"""A test pod that asks its client for input while it serves a call: an MCP stdio server (standard library only,
protocol 2025-11-25) with one tool.

ask {rounds: [[{method, params}, ...], ...], meta: true, sleep: 0}: for each round in turn, sends every request of the
round to the client at once (elicitation/create, sampling/createMessage, roots/list; each carries the call's
_meta["mcp-meta/call"] unless meta is false) and waits for all their answers; then sleeps `sleep` seconds (a
cancellation ends the call unanswered) and returns every answer (the whole JSON-RPC response, result or error) as
structuredContent {"answers": [[...], ...]}.
Environment: FIXTURE_PID_DIR (writes there a file named by its pid holding the line
"<pid> <META_PROCESS_TOKEN>"), FIXTURE_RECORD (appends "answered <method> <ok|code>" and
"cancelled <id>" lines).
"""
import json
import os
import sys
import threading
import time

out_lock = threading.Lock()
pending = {}
pending_lock = threading.Lock()
next_id = [5000]
cancelled = set()

TOOLS = [{"name": "ask", "description": "Asks the client for input, in rounds",
          "inputSchema": {"type": "object", "properties": {"rounds": {"type": "array"}, "meta": {"type": "boolean"}, "sleep": {"type": "number"}}}}]


def send(message):
    with out_lock:
        sys.stdout.write(json.dumps(message, ensure_ascii=False) + "\n")
        sys.stdout.flush()


def record(text):
    path = os.environ.get("FIXTURE_RECORD")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(text + "\n")


def ask_client(method, params):
    with pending_lock:
        next_id[0] += 1
        rid = next_id[0]
        event = threading.Event()
        pending[rid] = [event, None]
    send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
    event.wait(300)
    with pending_lock:
        answer = pending.pop(rid)[1]
    if answer is None:
        record("answered %s none" % method)
    elif "error" in answer:
        record("answered %s %d" % (method, answer["error"].get("code", 0)))
    else:
        record("answered %s ok" % method)
    return answer


def ask(rid, args, meta):
    answers = []
    for requests in args.get("rounds") or []:
        results = [None] * len(requests)

        def one(i, request):
            params = dict(request.get("params") or {})
            if args.get("meta", True):
                params["_meta"] = {"mcp-meta/call": meta.get("mcp-meta/call")}
            results[i] = ask_client(request["method"], params)

        threads = [threading.Thread(target=one, args=(i, r), daemon=True) for i, r in enumerate(requests)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        answers.append(results)
        if rid in cancelled:
            return None
    for _ in range(int(float(args.get("sleep", 0)) * 20)):
        if rid in cancelled:
            return None
        time.sleep(0.05)
    if rid in cancelled:
        return None
    return {"content": [{"type": "text", "text": json.dumps(answers, ensure_ascii=False)}],
            "structuredContent": {"answers": answers}}


def handle(message):
    rid = message.get("id")
    method = message.get("method")
    params = message.get("params") or {}
    if method == "initialize":
        result = {"protocolVersion": params.get("protocolVersion", "2025-11-25"),
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "asking", "version": "1.0.0"}}
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call" and params.get("name") == "ask":
        result = ask(rid, params.get("arguments") or {}, params.get("_meta") or {})
        if result is None:
            return
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found: " + str(method)}})
        return
    send({"jsonrpc": "2.0", "id": rid, "result": result})


def main():
    pid_dir = os.environ.get("FIXTURE_PID_DIR")
    if pid_dir:
        with open(os.path.join(pid_dir, str(os.getpid())), "w") as pid_file:
            pid_file.write("%d %s\n" % (os.getpid(), os.environ.get("META_PROCESS_TOKEN", "")))
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        message = json.loads(line)
        if "method" not in message:
            with pending_lock:
                entry = pending.get(message.get("id"))
                if entry:
                    entry[1] = message
                    entry[0].set()
            continue
        if "id" not in message:
            if message["method"] == "notifications/cancelled":
                request_id = message["params"]["requestId"]
                cancelled.add(request_id)
                record("cancelled " + json.dumps(request_id))
            continue
        if message["method"] == "tools/call":
            threading.Thread(target=handle, args=(message,), daemon=True).start()
        else:
            handle(message)


if __name__ == "__main__":
    main()
