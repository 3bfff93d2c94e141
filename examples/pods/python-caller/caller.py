#!/usr/bin/env python3
"""caller: an MCP stdio server (python3, standard library only) whose tools call other pods' tools through the
gateway, with the __mcp_meta_call__ request a pod sends on its stdout.

Tools:
  greet_team {names, language?}   greets each of the comma-separated names with the Node pod's greeter.greet,
                                  all requests in flight at once, each checked against greeter.greet's contract
                                  (id, version range, input schema hash): {"greetings": [...]}
  ping {}                         calls caller.pong, which calls caller.ping again: the gateway refuses that
                                  call (a cycle, -32004) and ping returns the answers it got: {"answer": ...}
  pong {}                         calls caller.ping

Each request forwards the chain the gateway passed in the call's _meta["mcp-meta/chain"], so the gateway sees the
whole path of calls; the pod's request ids are its own ("caller-1", ...), whatever ids the gateway uses.
"""
import json
import sys
import threading

GREET_CONTRACT = {
    "id": "examples.greeter.greet",
    "version": "^1.0.0",
    # sha256 of the RFC 8785 form of greeter.greet's inputSchema: `bin/meta-gateway --validate` prints it
    "schema_hash": "sha256:a1869336057131b356505808ad2264dec7ab793ff265ae2e2bb0b0c95f63074b",
}

TOOLS = [
    {"name": "greet_team", "description": "Greets every name with the Node greeter",
     "inputSchema": {"type": "object", "required": ["names"],
                     "properties": {"names": {"type": "string"}, "language": {"type": "string"}}}},
    {"name": "ping", "description": "Calls pong, which calls ping: a cycle", "inputSchema": {"type": "object"}},
    {"name": "pong", "description": "Calls ping", "inputSchema": {"type": "object"}},
]

out_lock = threading.Lock()
pending = {}
pending_lock = threading.Lock()
counter = [0]


def send(message):
    with out_lock:
        sys.stdout.write(json.dumps(message, ensure_ascii=False) + "\n")
        sys.stdout.flush()


def meta_call(tool, args, meta, expect=None):
    """Calls another pod's tool through the gateway; returns the JSON-RPC answer (result or error)."""
    with pending_lock:
        counter[0] += 1
        rid = "caller-%d" % counter[0]
        done = threading.Event()
        pending[rid] = [done, None]
    params = {"tool": tool, "args": args, "_meta": {"mcp-meta/chain": meta.get("mcp-meta/chain", [])}}
    if expect:
        params["expect"] = expect
    send({"jsonrpc": "2.0", "id": rid, "method": "__mcp_meta_call__", "params": params})
    done.wait(60)
    with pending_lock:
        return pending.pop(rid)[1] or {"error": {"code": -32001, "message": "no answer within 60 s"}}


def result(structured):
    return {"content": [{"type": "text", "text": json.dumps(structured, ensure_ascii=False)}],
            "structuredContent": structured}


def call_tool(name, args, meta):
    if name == "greet_team":
        names = [n.strip() for n in args["names"].split(",") if n.strip()]
        answers = [None] * len(names)

        def greet(i):
            answers[i] = meta_call("greeter.greet", {"name": names[i], "language": args.get("language", "en")},
                                   meta, GREET_CONTRACT)

        threads = [threading.Thread(target=greet, args=(i,)) for i in range(len(names))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        failed = [a["error"] for a in answers if "error" in a]
        if failed:
            return {"content": [{"type": "text", "text": json.dumps(failed, ensure_ascii=False)}], "isError": True}
        return result({"greetings": [a["result"]["structuredContent"]["greeting"] for a in answers]})
    if name == "ping":
        return result({"answer": meta_call("caller.pong", {}, meta)})
    if name == "pong":
        return result({"answer": meta_call("caller.ping", {}, meta)})
    raise KeyError(name)


def handle(message):
    rid = message.get("id")
    method = message.get("method")
    params = message.get("params") or {}
    if method == "initialize":
        answer = {"protocolVersion": params.get("protocolVersion", "2025-06-18"), "capabilities": {"tools": {}},
                  "serverInfo": {"name": "caller", "version": "1.0.0"}}
    elif method == "ping":
        answer = {}
    elif method == "tools/list":
        answer = {"tools": TOOLS}
    elif method == "tools/call":
        try:
            answer = call_tool(params.get("name"), params.get("arguments") or {}, params.get("_meta") or {})
        except KeyError as e:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "unknown tool or argument " + str(e)}})
            return
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found: " + str(method)}})
        return
    send({"jsonrpc": "2.0", "id": rid, "result": answer})


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        message = json.loads(line)
        if "method" not in message:  # an answer of the gateway to one of this pod's requests
            with pending_lock:
                entry = pending.get(message.get("id"))
                if entry:
                    entry[1] = message
                    entry[0].set()
            continue
        if "id" not in message:  # a notification
            continue
        # a call may wait for other pods: answer it on its own thread so this loop keeps reading
        threading.Thread(target=handle, args=(message,), daemon=True).start()


if __name__ == "__main__":
    main()
