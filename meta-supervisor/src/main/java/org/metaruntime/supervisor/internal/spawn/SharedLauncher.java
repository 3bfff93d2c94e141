package org.metaruntime.supervisor.internal.spawn;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.metaruntime.supervisor.internal.SharedTimer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides how a child is spawned, and owns this JVM's launcher ({@link SpawnServer}) while it is needed.
 *
 * <p>The JDK's spawn closes, in the new child, every descriptor the JVM holds, one system call each: with three
 * pipes per live child, a spawn among 1,000 live children costs about 30 times one in an empty JVM. The launcher
 * is a small JVM whose descriptor table stays small, so a spawn through it costs the same however many
 * descriptors this JVM holds. The choice is the system property {@value #MODE_PROPERTY}:
 * <ul>
 *   <li>{@code auto} (the default): through the launcher on Linux once this JVM holds more than
 *       {@value #AUTO_DESCRIPTORS} descriptors (counted in {@code /proc/self/fd} at most every
 *       {@value #COUNT_EVERY_MS} ms), else directly; if the launcher cannot be started, a warning is logged once
 *       and every spawn is direct;</li>
 *   <li>{@code launcher}: always through the launcher (Linux only; a spawn fails when the launcher cannot start);</li>
 *   <li>{@code direct}: always with the JDK's spawn in this JVM.</li>
 * </ul>
 * The launcher is started at the first spawn that needs it and closed once no child it started has been alive for
 * {@value #IDLE_MS} ms, so an idle runtime keeps no launcher. Thread-safe.
 */
public final class SharedLauncher {

    /** The system property that chooses how children are spawned: {@code auto}, {@code launcher} or {@code direct}. */
    public static final String MODE_PROPERTY = "metaruntime.spawn";
    /**
     * In {@code auto} mode, the descriptor count above which children are spawned through the launcher: about where
     * a direct spawn, which grows with the descriptors, costs what a spawn through the launcher costs (measured by
     * the benchmark {@code LauncherSpawn}).
     */
    static final int AUTO_DESCRIPTORS = 1024;
    static final long COUNT_EVERY_MS = 250;
    /** How long the launcher stays without a live child before it is closed. */
    static final long IDLE_MS = 2000;

    private static final Logger LOG = LoggerFactory.getLogger(SharedLauncher.class);
    private static final boolean LINUX = new File("/proc/self/fd").isDirectory()
            && System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    private static final Object LOCK = new Object();

    private static SpawnClient client;
    private static int live;
    private static long idleSince;
    private static boolean unavailable;
    private static volatile long countedAt;
    private static volatile int counted;

    private SharedLauncher() {
    }

    /** Whether the next spawn should go through the launcher. */
    public static boolean wanted() {
        String mode = System.getProperty(MODE_PROPERTY, "auto").strip().toLowerCase(Locale.ROOT);
        return switch (mode) {
            case "direct" -> false;
            case "launcher" -> true;
            default -> LINUX && !unavailable && descriptors() > AUTO_DESCRIPTORS;
        };
    }

    /** Whether a failure to start the launcher should fail the spawn rather than fall back to a direct one. */
    public static boolean forced() {
        return "launcher".equals(System.getProperty(MODE_PROPERTY, "").strip().toLowerCase(Locale.ROOT));
    }

    private static int descriptors() {
        long now = System.nanoTime();
        if (now - countedAt > TimeUnit.MILLISECONDS.toNanos(COUNT_EVERY_MS)) {
            counted = countDescriptors();
            countedAt = now;
        }
        return counted;
    }

    /** The descriptors this JVM holds now (the entries of {@code /proc/self/fd}), or 0 where that is unknown. */
    static int countDescriptors() {
        String[] names = new File("/proc/self/fd").list();
        return names == null ? 0 : names.length;
    }

    /**
     * Spawns a child through the launcher, starting the launcher if none is running.
     *
     * @param env the child's whole environment
     * @return the child, or empty when the launcher cannot be started and spawning is not {@link #forced()}
     * @throws IOException when the child cannot be started (or the launcher, when forced)
     */
    public static Optional<Process> spawn(List<String> argv, Path workdir, Map<String, String> env)
            throws IOException {
        SpawnClient using;
        synchronized (LOCK) {
            if (client == null) {
                try {
                    client = SpawnClient.start();
                } catch (IOException e) {
                    if (forced()) {
                        throw e;
                    }
                    unavailable = true;
                    LOG.warn("could not start the launcher; children are spawned by this JVM: {}", e.getMessage());
                    return Optional.empty();
                }
                SpawnClient started = client;
                started.ended().thenRun(() -> forget(started));
            }
            using = client;
            live++;
        }
        Process child;
        try {
            child = using.spawn(argv, workdir, env);
        } catch (IOException | RuntimeException e) {
            release(using);
            throw e;
        }
        child.onExit().whenComplete((exited, failure) -> release(using));
        return Optional.of(child);
    }

    private static void release(SpawnClient released) {
        synchronized (LOCK) {
            if (released != client) {
                return;
            }
            if (--live == 0) {
                idleSince = System.nanoTime();
                SharedTimer.timer().schedule(() -> closeIfIdle(released), IDLE_MS, TimeUnit.MILLISECONDS);
            }
        }
    }

    private static void closeIfIdle(SpawnClient idle) {
        synchronized (LOCK) {
            if (idle != client || live != 0
                    || System.nanoTime() - idleSince < TimeUnit.MILLISECONDS.toNanos(IDLE_MS)) {
                return;
            }
            client = null;
        }
        LOG.debug("closing the idle launcher (pid {})", idle.pid());
        idle.close();
    }

    private static void forget(SpawnClient ended) {
        synchronized (LOCK) {
            if (client == ended) {
                client = null;
                live = 0;
            }
        }
    }

    /** The running launcher's pid, if one is running. */
    public static OptionalLong pid() {
        synchronized (LOCK) {
            return client == null ? OptionalLong.empty() : OptionalLong.of(client.pid());
        }
    }
}
