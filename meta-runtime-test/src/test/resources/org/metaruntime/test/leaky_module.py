#!/usr/bin/env python3
"""A module that leaves a sleeper behind, then serves as the MCP fixture server.

    leaky_module.py MODE PIDFILE RELEASE SERVER [SERVER ARGS...]

It double-forks a `sleep 300` (its own session, stdio on /dev/null), writes the sleeper's pid to PIDFILE, then
execs `python SERVER [SERVER ARGS...]`. MODE:
  keep-marker   the go-between exits at once; the sleeper's environment is only META_RUNTIME_TEST_RUN (the runtime's
                process token is gone, so the runtime cannot find it)
  drop-env      the go-between waits until the file RELEASE exists, then exits; the sleeper's environment is empty
"""
import os
import sys
import time

mode, pidfile, release, server = sys.argv[1:5]
rest = sys.argv[5:]
marker = os.environ.get("META_RUNTIME_TEST_RUN", "")

between = os.fork()
if between == 0:
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    sleeper = os.fork()
    if sleeper == 0:
        os.setsid()
        env = {"META_RUNTIME_TEST_RUN": marker} if mode == "keep-marker" else {}
        os.execve("/bin/sleep", ["sleep", "300"], env)
    with open(pidfile + ".tmp", "w") as f:
        f.write("%d\n" % sleeper)
    os.rename(pidfile + ".tmp", pidfile)
    if mode == "drop-env":
        while not os.path.exists(release):
            time.sleep(0.02)
    os._exit(0)
if mode == "keep-marker":
    os.waitpid(between, 0)
while not os.path.exists(pidfile):
    time.sleep(0.01)
os.execv(sys.executable, [sys.executable, server] + rest)
