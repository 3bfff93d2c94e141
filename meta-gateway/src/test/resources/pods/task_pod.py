"""A modern pod (MCP 2026-07-28 only) offering the tasks extension, for the gateway's tests of tasks.

Reads JSON-RPC lines on stdin and answers on stdout. Appends each request it reads as a JSON line
({"method", "params"}) to $FIXTURE_RECORD. Tool: job. Called with the tasks extension declared, it answers a task
(its id "t+7"); without it, an ordinary result. tasks/get answers input_required with one input request,
tasks/update completes the task with the input responses it got as its result, tasks/cancel cancels it.
"""
import json
import os
import sys

TASKS = "io.modelcontextprotocol/tasks"
META = {"io.modelcontextprotocol/serverInfo": {"name": "task-pod", "version": "1.0.0"}}


def record(method, params):
    path = os.environ.get("FIXTURE_RECORD")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"method": method, "params": params}) + "\n")


def declares_tasks(params):
    capabilities = params.get("_meta", {}).get("io.modelcontextprotocol/clientCapabilities", {})
    return TASKS in capabilities.get("extensions", {})


def answer(method, params):
    if method == "server/discover":
        return {"resultType": "complete", "supportedVersions": ["2026-07-28"],
                "capabilities": {"tools": {}, "extensions": {TASKS: {}}}, "_meta": META}
    if method == "tools/list":
        return {"resultType": "complete", "tools": [
            {"name": "job", "description": "A long job", "inputSchema": {"type": "object"}}]}
    if method == "tools/call":
        if declares_tasks(params):
            return {"resultType": "task", "taskId": "t+7", "status": "working", "ttlMs": 60000, "pollIntervalMs": 100}
        return {"resultType": "complete", "content": [{"type": "text", "text": "done at once"}]}
    if method == "tasks/get":
        return {"resultType": "complete", "taskId": params["taskId"], "status": "input_required", "ttlMs": 60000,
                "pollIntervalMs": 100, "inputRequests": {"q": {"method": "elicitation/create",
                                                               "params": {"message": "Proceed?"}}}}
    if method == "tasks/update":
        return {"resultType": "complete", "taskId": params["taskId"], "status": "completed",
                "result": {"content": [{"type": "text", "text": json.dumps(params.get("inputResponses"))}]}}
    if method == "tasks/cancel":
        return {"resultType": "complete", "taskId": params["taskId"], "status": "cancelled"}
    return None


for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message or "method" not in message:
        continue
    method = message["method"]
    params = message.get("params") or {}
    record(method, params)
    result = answer(method, params)
    if result is None:
        reply = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "unknown method " + method}}
    else:
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": result}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
