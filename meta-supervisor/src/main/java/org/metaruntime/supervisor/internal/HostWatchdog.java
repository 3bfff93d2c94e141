package org.metaruntime.supervisor.internal;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.internal.proc.ProcessTree;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One small process per JVM that kills what the JVM started when the JVM dies, however it dies (SIGKILL and
 * crashes included, when no shutdown hook runs).
 *
 * <p>Every child gets {@value ProcessSpec#HOST_TOKEN_ENV}{@code =<host token>}, the same for every child of this
 * JVM and inherited by their descendants. At the first spawn, the JVM starts the watchdog (without making the spawn
 * wait for it): a POSIX
 * shell blocked reading a FIFO whose only writer is the JVM, which never writes to it. When the JVM ends, the
 * kernel closes the JVM's end, the shell's read returns end of file, and the shell SIGKILLs every process whose
 * initial environment ({@code /proc/<pid>/environ}) holds the host token, again until none is left (a process
 * forked while the others were killed is found by the next round), then exits. It is started detached (its
 * launcher exits, so it is re-parented to init): it is no descendant of the JVM and holds none of the JVM's pipes.
 * It ignores SIGINT, SIGHUP and SIGTERM, so a signal sent to the whole process group (a terminal's Ctrl-C) leaves
 * the stop of the children to the JVM's shutdown hook.
 *
 * <p>Cost while the JVM lives: one {@code sh} process blocked in {@code read} (no CPU), one pipe descriptor in the
 * JVM (the FIFO, already unlinked), no thread. Linux only (it needs {@code /proc}, {@code sh} and a {@code grep} with {@code -z}); elsewhere,
 * or when it cannot be started, a warning is logged once and children are spawned without it. Thread-safe.
 */
public final class HostWatchdog {

    private static final Logger LOG = LoggerFactory.getLogger(HostWatchdog.class);
    private static final String TOKEN = newToken();
    private static final long LAUNCH_WAIT_SECONDS = 10;

    /**
     * Run as {@code sh -c LAUNCHER meta-runtime-watchdog <token> <fifo>}. Makes the FIFO and opens it twice (read
     * and write, which does not block on Linux, then read only), starts the watchdog in the background on the
     * read end, prints its pid, and keeps its own write end until the JVM says that it holds the FIFO open too
     * (or its stdin ends: the JVM is gone). From then on the JVM is the FIFO's only writer, so the watchdog's
     * read ends exactly when the JVM does, and a JVM that dies during the launch leaves a watchdog that sweeps
     * and exits at once.
     */
    private static final String LAUNCHER = String.join("\n",
            "mkfifo -m 600 \"$2\" || exit 1",
            "exec 3<>\"$2\" 4<\"$2\"",
            "(",
            "  exec 3>&-",
            "  trap '' INT HUP TERM QUIT PIPE",
            "  while read -r _ <&4; do :; done",
            // end of file: the JVM is gone
            "  cd /proc || exit 1",
            "  round=0",
            "  while [ $round -lt 100 ]; do",
            "    found=$(grep -slzxF -e \"" + ProcessSpec.HOST_TOKEN_ENV + "=$1\" [0-9]*/environ)",
            "    [ -n \"$found\" ] || exit 0",
            "    for f in $found; do kill -KILL \"${f%/environ}\" 2>/dev/null; done",
            "    round=$((round + 1))",
            "  done",
            ") </dev/null >/dev/null 2>&1 &",
            "echo $!",
            "read -r _",
            "exec 3>&-",
            "rm -f \"$2\"");

    private static final Object LOCK = new Object();
    private static volatile boolean attempted;
    /** The JVM's end of the watchdog's FIFO: kept reachable so that it is closed only when the JVM ends. */
    private static RandomAccessFile lifeline;
    private static long pid = -1;

    private HostWatchdog() {
    }

    /** The token every child of this JVM carries in {@value ProcessSpec#HOST_TOKEN_ENV}. */
    public static String hostToken() {
        return TOKEN;
    }

    /**
     * Starts the watchdog, on a thread of its own, unless that was done before; called at every spawn. It never
     * delays a spawn: a child spawned before the watchdog is up carries the host token too, so the watchdog
     * covers it from the moment it is up (a few milliseconds later). Costs a volatile read after the first call.
     */
    public static void ensureStarted() {
        if (attempted) {
            return;
        }
        synchronized (LOCK) {
            if (attempted) {
                return;
            }
            attempted = true;
        }
        DaemonThreads.thread("meta-supervisor-watchdog-start", HostWatchdog::startNow).start();
    }

    private static void startNow() {
        try {
            if (!ProcessTree.readsProcessTable()) {
                LOG.warn("no /proc: children of this JVM are not killed if the JVM dies without running its "
                        + "shutdown hooks");
                return;
            }
            start();
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not start the host watchdog; children of this JVM are not killed if the JVM dies "
                    + "without running its shutdown hooks: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("interrupted while starting the host watchdog");
        }
    }

    /** The watchdog's pid, if it was started. */
    public static OptionalLong pid() {
        synchronized (LOCK) {
            return pid > 0 ? OptionalLong.of(pid) : OptionalLong.empty();
        }
    }

    private static void start() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("meta-runtime-watchdog");
        Path fifo = dir.resolve("lifeline");
        try {
            ProcessBuilder builder = new ProcessBuilder(
                    List.of("sh", "-c", LAUNCHER, "meta-runtime-watchdog", TOKEN, fifo.toString()))
                    .directory(new File("/"))
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .redirectOutput(ProcessBuilder.Redirect.PIPE)
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            // Its own environment must not hold the host token (it would find itself); PATH finds grep.
            String path = System.getenv("PATH");
            builder.environment().clear();
            builder.environment().put("PATH", path == null ? "/usr/bin:/bin" : path);
            Process launcher = builder.start();
            try {
                BufferedReader out = new BufferedReader(
                        new InputStreamReader(launcher.getInputStream(), StandardCharsets.US_ASCII));
                String line = out.readLine();
                if (line == null || !line.strip().matches("[0-9]+")) {
                    throw new IOException("its launcher printed " + line + " instead of a pid");
                }
                // Read and write: opening a FIFO so never blocks on Linux. Never closed: the JVM's end of the
                // lifeline closes when the JVM ends.
                RandomAccessFile end = new RandomAccessFile(fifo.toFile(), "rw");
                try (OutputStream ack = launcher.getOutputStream()) {
                    ack.write('\n');
                }
                if (!launcher.waitFor(LAUNCH_WAIT_SECONDS, TimeUnit.SECONDS) || launcher.exitValue() != 0) {
                    end.close();
                    throw new IOException("its launcher did not exit cleanly");
                }
                synchronized (LOCK) {
                    lifeline = end;
                    pid = Long.parseLong(line.strip());
                }
                LOG.debug("host watchdog started: pid {}", pid);
            } finally {
                launcher.destroyForcibly();
                launcher.getInputStream().close();
            }
        } finally {
            Files.deleteIfExists(fifo);
            Files.deleteIfExists(dir);
        }
    }

    private static String newToken() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
