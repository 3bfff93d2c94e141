#!/bin/sh
# An event-line module for the scale harness and ScaleTest: prints its first event (module id = $1), then stays
# alive as a single `sleep` (the shell execs it, about 1 MiB) until it is stopped.
printf '{"event_id":"evt-%s-%s","source":"module","timestamp_ms":%s,"module":"%s","event_type":"ready","payload":{"pid":%s}}\n' \
    "$1" "$$" "$(date +%s%3N)" "$1" "$$"
exec sleep 2147483647
