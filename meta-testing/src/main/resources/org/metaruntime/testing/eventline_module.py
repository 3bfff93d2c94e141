#!/usr/bin/env python3
"""An event-line module (stdlib only): writes one JSON event as its first stdout line. Usage: eventline_module.py [ID]

Behaviour from the environment (the way an event-line module is configured):
  FIXTURE_PIDFILE        append "<pid>" (then " <META_PROCESS_TOKEN>" when that is set) and a newline to the file
  FIXTURE_MODULE         the module field of the event (default: ID, else "fixture")
  FIXTURE_TRUTHFUL_RUNS  the first runs that use ID as module field even if FIXTURE_MODULE is set
  FIXTURE_COUNTER        a file counting the runs (under a file lock: concurrent runs count once each)
  FIXTURE_MODE           what a run does:
    ok           the event, then exit 0
    stay         the event, then stay 60 s (until stopped)
    empty        nothing on stdout, exit 3
    garbage      a non-JSON line, exit 0
    slow         stay 60 s before the event
    slow_later   slow from the second run on (the first run is ok)
    delay        FIXTURE_DELAY seconds (default 1) before the event
    crash_later  the event, then exit 7 after 0.3 s with a line on stderr
    fail_first   empty while the run count is at most FIXTURE_FAILURES (default 1), then ok
    chaos        the first run is ok; a later run hangs (FIXTURE_HANG_PERCENT) or prints garbage
                 (FIXTURE_GARBAGE_PERCENT, and always on runs 2, 6, 10, ... when above 0) at random; after its
                 first line the process stays until it is stopped or its parent is gone
The event: {"event_type": "ready", "payload": {"pid", "run", "token": META_PROCESS_TOKEN, "env": the MODULE_*,
HOME, PATH and META_MODULE_BOUNDARY variables, "text": "héllo 🌍"}}.
"""
import fcntl
import json
import os
import random
import sys
import time

TOKEN = os.environ.get("META_PROCESS_TOKEN", "")
parent = os.getppid()
pidfile = os.environ.get("FIXTURE_PIDFILE")
if pidfile:
    with open(pidfile, "a") as f:
        f.write("%d %s\n" % (os.getpid(), TOKEN) if TOKEN else "%d\n" % os.getpid())

mode = os.environ.get("FIXTURE_MODE", "ok")
run = 0
counter = os.environ.get("FIXTURE_COUNTER")
if counter:
    with open(counter, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        run = int(f.read().strip() or "0") + 1
        f.seek(0)
        f.truncate()
        f.write(str(run))
own = sys.argv[1] if len(sys.argv) > 1 else "fixture"
module = own if run <= int(os.environ.get("FIXTURE_TRUTHFUL_RUNS", "0")) else (os.environ.get("FIXTURE_MODULE") or own)


def event():
    env = {k: v for k, v in os.environ.items()
           if k.startswith("MODULE_") or k in ("HOME", "PATH", "META_MODULE_BOUNDARY")}
    return {
        "event_id": "evt-%s-%d" % (module, os.getpid()),
        "source": "module",
        "timestamp_ms": int(time.time() * 1000),
        "module": module,
        "event_type": "ready",
        "payload": {"pid": os.getpid(), "run": run, "token": TOKEN, "env": env, "text": "héllo 🌍"},
    }


if mode == "chaos":
    roll = random.uniform(0, 100)
    hang = float(os.environ.get("FIXTURE_HANG_PERCENT", "0"))
    garbage = float(os.environ.get("FIXTURE_GARBAGE_PERCENT", "0"))
    if run > 1 and roll < hang:
        pass
    elif run > 1 and (roll < hang + garbage or (run % 4 == 2 and garbage > 0)):
        print("this is not json", flush=True)
    else:
        print(json.dumps(event(), ensure_ascii=False), flush=True)
    while os.getppid() == parent:
        time.sleep(0.2)
    sys.exit(0)

if mode == "empty" or (mode == "fail_first" and run <= int(os.environ.get("FIXTURE_FAILURES", "1"))):
    sys.stderr.write("fixture: nothing to say (run %d)\n" % run)
    sys.exit(3)
if mode == "garbage":
    print("this is not json", flush=True)
    sys.exit(0)
if mode == "slow" or (mode == "slow_later" and run > 1):
    time.sleep(60)
if mode == "delay":
    time.sleep(float(os.environ.get("FIXTURE_DELAY", "1")))

print(json.dumps(event(), ensure_ascii=False), flush=True)

if mode == "stay":
    time.sleep(60)
elif mode == "crash_later":
    time.sleep(0.3)
    sys.stderr.write("fixture: crashing\n")
    sys.stderr.flush()
    sys.exit(7)
