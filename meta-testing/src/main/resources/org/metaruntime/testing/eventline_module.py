#!/usr/bin/env python3
"""An event-line module (stdlib only): writes one JSON event as its first stdout line. Usage: eventline_module.py [ID]

Behaviour from the environment (the way an event-line module is configured):
  FIXTURE_PIDFILE        append "<pid>" (then " <META_PROCESS_TOKEN>" when that is set) and a newline to the file
  FIXTURE_GRANDCHILD_PIDFILE  before anything else, start a grandchild (sleep 300) that holds this process's stdout
                         and stderr, and append its pid and a newline to this file (one pid file per process kind)
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
  The first line itself (each then exits 0 unless said otherwise):
    envelope     the event in envelope form ({"event_id", "source", "timestamp_ms", "event": {"kind": "module", ...}})
    crlf         the event ending in CR LF
    no_newline   the event without a line end
    missing_field  a line without timestamp_ms
    invalid_utf8   a line that is not UTF-8
    invalid_utf8_in_string  an event whose event_id is "evt-bad-" and the byte 0xff
    huge_line    100 MiB on one line, then stay 60 s
    stderr_flood 10 MiB on stderr, then "end of the flood" on stderr, then the event
    read_stdin   read stdin to its end, then the event with payload.stdin_bytes
    ignore_term  ignore SIGTERM (the grandchild too), the event, then stay 60 s
The event: {"event_type": "ready", "payload": {"pid", "run", "token": META_PROCESS_TOKEN, "env": the MODULE_*,
HOME, PATH and META_MODULE_BOUNDARY variables, "text": "héllo 🌍"}}.
"""
import fcntl
import json
import os
import random
import signal
import subprocess
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
if mode == "ignore_term":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
grandchild_pidfile = os.environ.get("FIXTURE_GRANDCHILD_PIDFILE")
if grandchild_pidfile:
    grandchild = subprocess.Popen(["sleep", "300"])
    with open(grandchild_pidfile, "a") as f:
        f.write("%d\n" % grandchild.pid)
own = sys.argv[1] if len(sys.argv) > 1 else "fixture"
module = own if run <= int(os.environ.get("FIXTURE_TRUTHFUL_RUNS", "0")) else (os.environ.get("FIXTURE_MODULE") or own)


def event(**extra):
    env = {k: v for k, v in os.environ.items()
           if k.startswith("MODULE_") or k in ("HOME", "PATH", "META_MODULE_BOUNDARY")}
    payload = {"pid": os.getpid(), "run": run, "token": TOKEN, "env": env, "text": "héllo 🌍"}
    payload.update(extra)
    return {
        "event_id": "evt-%s-%d" % (module, os.getpid()),
        "source": "module",
        "timestamp_ms": int(time.time() * 1000),
        "module": module,
        "event_type": "ready",
        "payload": payload,
    }


def write(data):
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def line(obj, end=b"\n"):
    write(json.dumps(obj, ensure_ascii=False).encode("utf-8") + end)


def first_line():
    """The first line of the modes that test the line itself; False for every other mode."""
    if mode == "envelope":
        flat = event()
        line({"event_id": flat["event_id"], "source": "module", "timestamp_ms": flat["timestamp_ms"],
              "event": {"kind": "module", "module": module, "event_type": "ready", "payload": flat["payload"]}})
    elif mode == "crlf":
        line(event(), end=b"\r\n")
    elif mode == "no_newline":
        line(event(), end=b"")
    elif mode == "missing_field":
        line({"event_id": "evt-%s-%d" % (module, os.getpid()), "source": "module"})
    elif mode == "invalid_utf8":
        write(b"\xff\xfe\xfd not utf-8\n")
    elif mode == "invalid_utf8_in_string":
        write(b'{"event_id":"evt-bad-\xff","source":"module","timestamp_ms":1,"module":"' + module.encode()
              + b'","event_type":"ready","payload":null}\n')
    elif mode == "huge_line":
        chunk = b"x" * (1 << 20)
        for _ in range(100):
            write(chunk)
        write(b"\n")
        time.sleep(60)
    elif mode == "stderr_flood":
        block = b"e" * 65535 + b"\n"
        for _ in range(160):
            sys.stderr.buffer.write(block)
        sys.stderr.buffer.write(b"end of the flood\n")
        sys.stderr.buffer.flush()
        line(event())
    elif mode == "read_stdin":
        line(event(stdin_bytes=len(sys.stdin.buffer.read())))
    elif mode == "ignore_term":
        line(event())
        time.sleep(60)
    else:
        return False
    return True


if first_line():
    sys.exit(0)


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
