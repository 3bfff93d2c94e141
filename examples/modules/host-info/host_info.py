#!/usr/bin/env python3
"""host-info: an event-line module (python3, standard library only).

Protocol: write ONE JSON event as the first stdout line, then exit 0. The runtime closes stdin at
once and never sends the module anything; configuration arrives through the environment.

The event is in the flat form (docs/events.md, "Wire form"):
  {"event_id": ..., "source": "module", "timestamp_ms": ..., "module": <id>,
   "event_type": "host.snapshot", "payload": {...}}

Environment:
  HOST_INFO_MODULE_ID  the module id to report (default "host-info"); the runtime only accepts an
                       event whose "module" equals the id it routed to.
  HOST_INFO_LABEL      a free label echoed in the payload, typically set through pre-spawn data.

Try it by hand:  HOST_INFO_LABEL=hello python3 host_info.py
"""
import json
import os
import platform
import sys
import time


def snapshot():
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        load = None
    return {
        "label": os.environ.get("HOST_INFO_LABEL", ""),
        "pid": os.getpid(),
        "python": platform.python_version(),
        "system": platform.system(),
        "cpus": os.cpu_count(),
        "load_avg": load,
    }


def main():
    now_ms = time.time_ns() // 1_000_000
    module_id = os.environ.get("HOST_INFO_MODULE_ID", "host-info")
    event = {
        "event_id": "evt-%s-%d-%d" % (module_id, now_ms, os.getpid()),
        "source": "module",
        "timestamp_ms": now_ms,
        "module": module_id,
        "event_type": "host.snapshot",
        "payload": snapshot(),
    }
    out = sys.stdout.buffer
    out.write((json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8"))
    out.flush()
    print("host-info: reported one snapshot", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
