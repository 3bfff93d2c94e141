#!/usr/bin/env python3
"""A test pod: an MCP stdio server (standard library only) with one tool per gateway feature.

Tools: echo {text}, slow {seconds, steps} (progress; records a cancellation), sample {prompt} (asks the client
for sampling during the call), log {level, text}, crash {code}, sleep {seconds} (no progress), grow (adds a tool
and sends notifications/tools/list_changed), meta {} (returns the _meta the call carried), and call / relay /
forward {tool, args, expect, count, forward_chain, ids}: calls another tool through the gateway (__mcp_meta_call__),
count requests at once, forwarding the call's _meta["mcp-meta/chain"] unless forward_chain is false, with its own ids
("own"), the id of the tools/call it serves for the first ("same"), or 1..count ("small"); returns every answer
as structuredContent {"responses": [...]}.
Also resources (fixture://greeting, template fixture://items/{id}; fixture://items/missing is -32002), prompts (greet), completion.
Environment: FIXTURE_PID_DIR (writes there a file named by its pid holding the line
"<pid> <META_PROCESS_TOKEN>"), FIXTURE_RECORD (appends "cancelled <id>" lines),
FIXTURE_STDERR (writes that text to stderr at start).
"""
import json
import os
import sys
import threading
import time

out_lock = threading.Lock()
pending = {}
pending_lock = threading.Lock()
next_id = [1000]
cancelled = set()
extra_tools = []

TEXT = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
TOOLS = [
    {"name": "echo", "description": "Echoes text", "inputSchema": TEXT,
     "annotations": {"readOnlyHint": True}},
    {"name": "slow", "description": "Takes a while, with progress",
     "inputSchema": {"type": "object", "properties": {"seconds": {"type": "number"}, "steps": {"type": "integer"}}}},
    {"name": "sample", "description": "Asks the client to sample", "inputSchema": {"type": "object", "properties": {"prompt": {"type": "string"}}}},
    {"name": "log", "description": "Logs a line", "inputSchema": {"type": "object", "properties": {"level": {"type": "string"}, "text": {"type": "string"}}}},
    {"name": "crash", "description": "Exits at once", "inputSchema": {"type": "object", "properties": {"code": {"type": "integer"}}}},
    {"name": "sleep", "description": "Sleeps without progress", "inputSchema": {"type": "object", "properties": {"seconds": {"type": "number"}}}},
    {"name": "grow", "description": "Adds a tool", "inputSchema": {"type": "object"}},
    {"name": "meta", "description": "Returns the call's _meta", "inputSchema": {"type": "object"}},
    {"name": "image", "description": "Returns mixed content", "inputSchema": {"type": "object"}},
] + [{"name": n, "description": "Calls another tool", "inputSchema": {"type": "object"}} for n in ("call", "relay", "forward")]


def call_other(rid, args, meta):
    params = {"tool": args.get("tool"), "args": args.get("args") or {}}
    if "expect" in args:
        params["expect"] = args["expect"]
    if args.get("forward_chain", True) and "mcp-meta/chain" in meta:
        params["_meta"] = {"mcp-meta/chain": meta["mcp-meta/chain"]}
    count = int(args.get("count", 1))
    ids = args.get("ids", "own")
    answers = [None] * count

    def one(i):
        wanted = rid if ids == "same" and i == 0 else (i + 1 if ids == "small" else None)
        answers[i] = ask_client("__mcp_meta_call__", params, 60, wanted)

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    record("nested %s done" % args.get("tool"))
    return text_result(json.dumps(answers, ensure_ascii=False), {"responses": answers})


def send(message):
    line = json.dumps(message, ensure_ascii=False)
    with out_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def record(text):
    path = os.environ.get("FIXTURE_RECORD")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(text + "\n")


def ask_client(method, params, timeout=30, rid=None):
    with pending_lock:
        next_id[0] += 1
        rid = next_id[0] if rid is None else rid
        event = threading.Event()
        pending[rid] = [event, None]
    send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
    event.wait(timeout)
    with pending_lock:
        return pending.pop(rid)[1]


def text_result(text, structured=None):
    result = {"content": [{"type": "text", "text": text}]}
    if structured is not None:
        result["structuredContent"] = structured
    return result


def call_tool(rid, params):
    name = params.get("name")
    args = params.get("arguments") or {}
    meta = params.get("_meta") or {}
    token = meta.get("progressToken")
    if name == "echo":
        return text_result(args["text"], {"echo": args["text"]})
    if name == "slow":
        steps = int(args.get("steps", 5))
        for i in range(steps):
            if rid in cancelled:
                record("cancelled " + json.dumps(rid))
                return None
            if token is not None:
                send({"jsonrpc": "2.0", "method": "notifications/progress",
                      "params": {"progressToken": token, "progress": i + 1, "total": steps, "message": "step %d ✓" % (i + 1)}})
            time.sleep(float(args.get("seconds", 1)) / steps)
        if rid in cancelled:
            record("cancelled " + json.dumps(rid))
            return None
        return text_result("done after %d steps" % steps)
    if name == "sleep":
        time.sleep(float(args.get("seconds", 1)))
        return text_result("slept")
    if name == "sample":
        answer = ask_client("sampling/createMessage", {
            "messages": [{"role": "user", "content": {"type": "text", "text": args.get("prompt", "hi")}}],
            "maxTokens": 50, "_meta": {"mcp-meta/call": meta.get("mcp-meta/call")}})
        if answer is None or "error" in answer:
            return {"content": [{"type": "text", "text": "sampling failed: " + json.dumps(answer, ensure_ascii=False)}], "isError": True}
        return text_result(answer["result"]["content"]["text"])
    if name == "log":
        send({"jsonrpc": "2.0", "method": "notifications/message",
              "params": {"level": args.get("level", "info"), "logger": "fixture", "data": args.get("text", "")}})
        return text_result("logged")
    if name == "crash":
        sys.stderr.write("crashing on purpose\n")
        sys.stderr.flush()
        os._exit(int(args.get("code", 3)))
    if name == "grow":
        extra_tools.append({"name": "extra%d" % (len(extra_tools) + 1), "description": "Added", "inputSchema": {"type": "object"}})
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        return text_result("grown to %d" % (len(TOOLS) + len(extra_tools)))
    if name == "meta":
        return text_result(json.dumps(meta, ensure_ascii=False), {"meta": meta})
    if name == "image":
        return {"content": [{"type": "text", "text": "an image:"},
                            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
                            {"type": "resource_link", "uri": "fixture://greeting", "name": "greeting"}],
                "structuredContent": {"kind": "mixed"}}
    if name in ("call", "relay", "forward"):
        return call_other(rid, args, meta)
    if name and name.startswith("extra"):
        return text_result(name)
    raise KeyError(name)


def handle(message):
    rid = message.get("id")
    method = message.get("method")
    params = message.get("params") or {}
    try:
        if method == "initialize":
            result = {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                      "capabilities": {"tools": {"listChanged": True}, "resources": {}, "prompts": {}, "logging": {}, "completions": {}},
                      "serverInfo": {"name": "fixture", "version": "1.0.0"}}
        elif method == "ping":
            result = {}
        elif method == "tools/list":
            result = {"tools": TOOLS + extra_tools}
        elif method == "tools/call":
            result = call_tool(rid, params)
            if result is None:
                return
        elif method == "resources/list":
            result = {"resources": [{"uri": "fixture://greeting", "name": "greeting", "mimeType": "text/plain"}]}
        elif method == "resources/templates/list":
            result = {"resourceTemplates": [{"uriTemplate": "fixture://items/{id}", "name": "item"}]}
        elif method == "resources/read":
            uri = params["uri"]
            if uri.endswith("/missing"):
                send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32002, "message": "resource not found: " + uri,
                                                            "data": {"uri": uri}}})
                return
            text = "こんにちは 🎉" if uri == "fixture://greeting" else "item " + uri.rsplit("/", 1)[-1]
            result = {"contents": [{"uri": uri, "mimeType": "text/plain", "text": text}]}
        elif method == "prompts/list":
            result = {"prompts": [{"name": "greet", "description": "A greeting", "arguments": [{"name": "who", "required": True}]}]}
        elif method == "prompts/get":
            result = {"messages": [{"role": "user", "content": {"type": "text", "text": "Say hello to " + params["arguments"]["who"]}}]}
        elif method == "completion/complete":
            value = params["argument"]["value"]
            result = {"completion": {"values": [v for v in ["Ada", "Alan", "Grace"] if v.startswith(value)]}}
        elif method == "logging/setLevel":
            result = {}
        else:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found: " + str(method)}})
            return
        send({"jsonrpc": "2.0", "id": rid, "result": result})
    except KeyError as e:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "unknown tool or argument " + str(e)}})


def main():
    pid_dir = os.environ.get("FIXTURE_PID_DIR")
    if pid_dir:
        with open(os.path.join(pid_dir, str(os.getpid())), "w") as pid_file:
            pid_file.write("%d %s\n" % (os.getpid(), os.environ.get("META_PROCESS_TOKEN", "")))
    if os.environ.get("FIXTURE_STDERR"):
        sys.stderr.write(os.environ["FIXTURE_STDERR"] + "\n")
        sys.stderr.flush()
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
                cancelled.add(message["params"]["requestId"])
            continue
        if message["method"] == "tools/call":
            threading.Thread(target=handle, args=(message,), daemon=True).start()
        else:
            handle(message)


if __name__ == "__main__":
    main()
