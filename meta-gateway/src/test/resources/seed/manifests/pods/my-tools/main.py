import sys
import json

for line in sys.stdin:
    req = json.loads(line)
    resp = {"jsonrpc": "2.0", "id": req["id"], "result": {"status": "ok"}}
    print(json.dumps(resp, ensure_ascii=False), flush=True)
