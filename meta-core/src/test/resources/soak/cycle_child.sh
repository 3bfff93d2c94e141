#!/bin/sh
# A child for the start/stop cycles. Appends "<pid> <token>" for itself and anything it starts to $FIXTURE_PIDFILE,
# prints "ready" once its tree is in place, then waits for the end of stdin (except "event" and "stubborn").
#   plain       nothing else
#   grandchild  leaves a "sleep" behind when it exits (an orphan unless the runtime kills it)
#   holder      the same, but the "sleep" keeps the child's stdout and stderr open
#   detached    leaves a "sleep" in its own session with its stdio closed (found only through the token)
#   event       an event-line module: leaves a "sleep" behind, prints one JSON event, then waits for its "sleep"
#   stubborn    becomes a "sleep" that ignores SIGTERM and the end of stdin: only SIGKILL ends it
#   stubborn-event  the same as an event-line module: prints one JSON event first
# The events name the module $FIXTURE_MODULE (default "one").
mode="$1"
echo "$$ $META_PROCESS_TOKEN" >> "$FIXTURE_PIDFILE"
case "$mode" in
  grandchild)
    sleep 300 </dev/null >/dev/null 2>&1 &
    echo "$! $META_PROCESS_TOKEN" >> "$FIXTURE_PIDFILE" ;;
  holder)
    sleep 300 &
    echo "$! $META_PROCESS_TOKEN" >> "$FIXTURE_PIDFILE" ;;
  detached)
    setsid sleep 300 </dev/null >/dev/null 2>&1 &
    echo "$! $META_PROCESS_TOKEN" >> "$FIXTURE_PIDFILE" ;;
  event)
    sleep 300 &
    echo "$! $META_PROCESS_TOKEN" >> "$FIXTURE_PIDFILE"
    printf '{"event_id":"evt-cycle-%s","source":"module","timestamp_ms":1,"module":"%s","event_type":"ready","payload":{}}\n' "$$" "${FIXTURE_MODULE:-one}"
    wait
    exit 0 ;;
  stubborn)
    trap '' TERM
    echo ready
    exec sleep 300 ;;
  stubborn-event)
    trap '' TERM
    printf '{"event_id":"evt-stubborn-%s","source":"module","timestamp_ms":1,"module":"%s","event_type":"ready","payload":{}}\n' "$$" "${FIXTURE_MODULE:-one}"
    exec sleep 300 ;;
esac
echo ready
while read -r _; do :; done
