#!/usr/bin/env python3
"""A bare JSON-RPC 2.0 pod, like the smallest pods people write: it answers every request with a plain
result object and knows nothing of MCP (no initialize, no tools/list, no CallToolResult)."""
import json
import os
import sys

pid_dir = os.environ.get("FIXTURE_PID_DIR")
if pid_dir:
    open(os.path.join(pid_dir, str(os.getpid())), "w").close()
for line in sys.stdin:
    req = json.loads(line)
    if "id" not in req:
        continue
    params = req.get("params") or {}
    resp = {"jsonrpc": "2.0", "id": req["id"],
            "result": {"status": "ok", "method": req.get("method"), "echo": (params.get("arguments") or {}).get("text")}}
    print(json.dumps(resp, ensure_ascii=False), flush=True)
