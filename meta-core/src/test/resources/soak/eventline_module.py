"""An event-line module for the soak tests.

Its first run (counted in FIXTURE_COUNTER, under a file lock) always answers; later runs answer, hang
(FIXTURE_HANG_PERCENT) or print a non-JSON line (FIXTURE_GARBAGE_PERCENT), at random; with a garbage
percentage above 0 the second run always prints garbage, so every soak sees that fault. An answer carries this
process's META_PROCESS_TOKEN and pid. After its first line the process stays until it is stopped, or until
its parent is gone (then it exits: nothing it started outlives the test).
FIXTURE_PIDFILE: append "<pid> <META_PROCESS_TOKEN>" to this file. FIXTURE_MODULE: the event's module.
"""
import fcntl
import json
import os
import random
import sys
import time

TOKEN = os.environ.get("META_PROCESS_TOKEN", "")
parent = os.getppid()
with open(os.environ["FIXTURE_PIDFILE"], "a") as f:
    f.write("%d %s\n" % (os.getpid(), TOKEN))

with open(os.environ["FIXTURE_COUNTER"], "a+") as f:
    fcntl.flock(f, fcntl.LOCK_EX)
    f.seek(0)
    run = int(f.read().strip() or "0") + 1
    f.seek(0)
    f.truncate()
    f.write(str(run))

roll = random.uniform(0, 100)
hang = float(os.environ.get("FIXTURE_HANG_PERCENT", "0"))
garbage = float(os.environ.get("FIXTURE_GARBAGE_PERCENT", "0"))
if run > 1 and roll < hang:
    pass
elif run > 1 and (roll < hang + garbage or (run == 2 and garbage > 0)):
    print("this is not json", flush=True)
else:
    module = os.environ["FIXTURE_MODULE"]
    print(json.dumps({"event_id": "evt-%s-%d" % (module, os.getpid()), "source": "module",
                      "timestamp_ms": int(time.time() * 1000), "module": module, "event_type": "answer",
                      "payload": {"token": TOKEN, "pid": os.getpid(), "run": run}}), flush=True)

while os.getppid() == parent:
    time.sleep(0.2)
