package org.metaruntime.supervisor.internal.proc;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.internal.proc.ProcReads.Stat;

/**
 * Linux's {@code /proc} as seen at or after one moment: every read a lookup makes through this view was made at or
 * after that moment (reads are shared between views through {@link ProcReads}). The parent and start time of a
 * process ({@code /proc/<pid>/stat}) are read when a lookup needs them; the tree token
 * ({@value ProcessSpec#TOKEN_ENV}) in a process's initial environment ({@code /proc/<pid>/environ}, a larger file)
 * likewise, once per process, and only for processes created after the child whose token is looked for (no other
 * can carry it: a process starts after its parent).
 *
 * <p><b>Scope.</b> A lookup for one child reads only the processes created after it: the kernel hands out pids
 * in increasing order, wrapping at {@code pid_max}, so every process created after the child (its descendants,
 * re-parented or not, among them) has a pid in the cyclic range from the child's pid to the last pid handed out
 * when the pass began ({@code /proc/loadavg}), unless the pids went all the way round since. They cannot have when
 * {@code 2 * forks + tasks < pid_max - 300}, where {@code forks} is the number of processes and threads created
 * since just before the spawn and {@code tasks} the number alive then: the allocator steps over a free pid by
 * using it and over a used one at most once per task alive in that time. A range of up to
 * {@value #PROBE_LIMIT} pids is probed pid by pid; a larger one is taken from the listing of {@code /proc}, and
 * without that guarantee the lookup reads every process. So the
 * stop of a child and the clean-up after its exit cost what the child and the processes created since it cost,
 * not what the host's other processes cost.
 *
 * <p>A process in the middle of {@code execve} has an empty {@code environ} for a moment (the kernel installs the
 * new memory before it copies the new environment into it; the longer the host is loaded, the longer the
 * moment). An empty read of a live user process is therefore not taken as "no token": it is read again until
 * it is not empty, for up to {@value #UNSETTLED_WAIT_MS} ms (after which the environment is taken as empty for
 * this view).
 *
 * <p>No caller ever sees a read older than the moment it asks about ({@link #takenAfter(long)}), and children that
 * are stopped or exit together share their reads. Thread-safe.
 */
final class ProcessTable {

    private static final byte[] TOKEN_PREFIX = (ProcessSpec.TOKEN_ENV + "=").getBytes(StandardCharsets.UTF_8);
    private static final String NO_TOKEN = "";
    /** How long a lookup re-reads an environment that reads empty while its process is alive. */
    static final long UNSETTLED_WAIT_MS = 200;
    /** The largest range of pids probed one by one; a larger one is taken from the listing of {@code /proc}. */
    static final int PROBE_LIMIT = 256;
    private static final long RESERVED_PIDS = ProcReads.RESERVED_PIDS;
    /** {@code PF_KTHREAD} in the flags of {@code /proc/<pid>/stat}: a kernel thread, whose environment is empty. */
    private static final long KERNEL_THREAD = 0x00200000L;
    private static final long PID_MAX = ProcReads.pidMax();

    private final long moment;
    private final ProcReads reads;
    /** The last pid handed out at or after the moment, or -1 when unknown. */
    private final long lastPid;
    /** {@link #forksSinceBoot()} at or after the moment, or -1. */
    private final long forks;
    /** The counters this view was taken with, or null. */
    private final ProcReads.Counters counters;
    /** Environments that read empty for {@value #UNSETTLED_WAIT_MS} ms in this view: not read again in it. */
    private final Set<Long> unsettled = ConcurrentHashMap.newKeySet();

    private ProcessTable(long moment, ProcReads reads, ProcReads.Counters counters) {
        this.moment = moment;
        this.reads = reads;
        this.counters = counters;
        this.lastPid = counters == null ? -1 : counters.lastPid();
        this.forks = counters == null ? -1 : counters.forks();
    }

    /**
     * A view of the given processes only (for tests): no scope, {@code children} by parent and
     * {@code startTicks} by pid.
     *
     * @param environ reads the initial environment of a pid ({@code /proc/<pid>/environ}), null when it cannot be
     *                read
     */
    ProcessTable(long moment, Map<Long, List<Long>> children, Map<Long, Long> startTicks,
                 Function<Long, byte[]> environ) {
        this(moment, new ProcReads(pid -> {
            Long started = startTicks.get(pid);
            if (started == null) {
                return null;
            }
            long parent = children.entrySet().stream().filter(e -> e.getValue().contains(pid))
                    .mapToLong(Map.Entry::getKey).findFirst().orElse(0);
            return new Stat('S', parent, 0, started, 17);
        }, () -> startTicks.keySet().stream().mapToLong(Long::longValue).toArray(), environ), null);
    }

    /** True where {@code /proc} can be scanned. */
    static boolean available() {
        return Files.isReadable(ProcReads.PROC.resolve("self").resolve("environ"));
    }

    /** The host's {@code /proc} as seen at or after {@code nanos} ({@link System#nanoTime()}). */
    static ProcessTable takenAfter(long nanos) {
        ProcReads host = ProcReads.host();
        return new ProcessTable(nanos, host, host.counters(nanos));
    }

    /**
     * The number of tasks (processes and threads) alive now, from {@code /proc/loadavg}, or -1 when it cannot be
     * read. Read it just before a spawn, with {@link #forksSinceBoot()}, to scope the child's lookups.
     */
    static long tasksAlive() {
        return ProcReads.loadavg()[0];
    }

    /**
     * The number of processes and threads the host has created since boot (the {@code processes} line of
     * {@code /proc/stat}), or -1 when it cannot be read. It only grows.
     */
    static long forksSinceBoot() {
        return ProcReads.forksSinceBoot();
    }

    /**
     * The start time of {@code pid} in clock ticks after boot ({@code /proc/<pid>/stat}), or 0 when it cannot
     * be read (the process is gone); 0 is earlier than every process.
     */
    static long startTicksOf(long pid) {
        Stat stat = Stat.read(pid);
        return stat == null ? 0 : stat.startTicks();
    }

    /**
     * The processes (not threads) that may have been created after the child {@code rootPid}: those in its pid
     * range when the pids provably did not wrap round since ({@code scoped}), else every process.
     *
     * @param forksBeforeSpawn {@link #forksSinceBoot()} read just before the child's spawn, or -1
     * @param tasksBeforeSpawn {@link #tasksAlive()} read just before the child's spawn, or -1
     */
    Candidates createdAfter(long rootPid, long forksBeforeSpawn, long tasksBeforeSpawn) {
        if (lastPid < 0 || forks < 0 || forksBeforeSpawn < 0 || tasksBeforeSpawn < 0 || PID_MAX <= RESERVED_PIDS
                || 2 * (forks - forksBeforeSpawn) + tasksBeforeSpawn >= PID_MAX - RESERVED_PIDS) {
            return new Candidates(listing(), false);
        }
        long range = lastPid >= rootPid ? lastPid - rootPid : PID_MAX - rootPid + lastPid;
        if (range > PROBE_LIMIT) {
            return new Candidates(Arrays.stream(listing()).filter(pid -> inCyclicRange(pid, rootPid, lastPid))
                    .toArray(), true);
        }
        long[] found = new long[(int) range];
        int count = 0;
        long pid = rootPid;
        for (long i = 0; i < range; i++) {
            pid = pid + 1 >= PID_MAX ? 1 : pid + 1;
            // A thread's id is a pid too, and /proc/<tid> answers for it: only thread group leaders count.
            Stat stat = reads.probe(pid, moment);
            if (stat != null && stat.exitSignal() != -1) {
                found[count++] = pid;
            }
        }
        return new Candidates(Arrays.copyOf(found, count), true);
    }

    /**
     * Processes a lookup reads.
     *
     * @param pids   their pids
     * @param scoped true when they are only those created after the child
     */
    record Candidates(long[] pids, boolean scoped) {
    }

    /** True when {@code pid} was handed out after {@code after} and up to {@code upTo}, wrapping at pid_max. */
    static boolean inCyclicRange(long pid, long after, long upTo) {
        return upTo >= after ? pid > after && pid <= upTo : pid > after || pid <= upTo;
    }

    /** Every process, as listed at or after the moment. */
    long[] listing() {
        return reads.listing(moment);
    }

    /**
     * Every descendant of {@code pid}, whatever its environment: walked down from {@code pid} through
     * {@code /proc/<pid>/task/<tid>/children} (it costs what the descendants cost), or, where the kernel has no
     * such files, found among {@code candidates} by their parents.
     */
    Set<Long> descendantsOf(long pid, long[] candidates) {
        Set<Long> walked = reads == ProcReads.host() ? walkChildren(pid) : null;
        if (walked != null) {
            return walked;
        }
        Map<Long, List<Long>> children = new HashMap<>();
        for (long candidate : candidates) {
            Stat stat = stat(candidate);
            if (stat != null && stat.parent() > 0) {
                children.computeIfAbsent(stat.parent(), p -> new ArrayList<>()).add(candidate);
            }
        }
        Set<Long> found = new LinkedHashSet<>();
        ArrayDeque<Long> pending = new ArrayDeque<>(List.of(pid));
        while (!pending.isEmpty()) {
            for (long child : children.getOrDefault(pending.poll(), List.of())) {
                if (found.add(child)) {
                    pending.add(child);
                }
            }
        }
        return found;
    }

    /** The descendants of {@code pid} from the kernel's children lists, or null where there are none. */
    private static Set<Long> walkChildren(long pid) {
        Set<Long> found = new LinkedHashSet<>();
        ArrayDeque<Long> pending = new ArrayDeque<>(List.of(pid));
        boolean first = true;
        while (!pending.isEmpty()) {
            long parent = pending.poll();
            List<Long> children = ProcReads.childrenOf(parent);
            if (children == null) {
                if (first) {
                    return null;   // no children lists here (or the root is gone): let the caller look
                }
                continue;          // gone meanwhile
            }
            first = false;
            for (long child : children) {
                if (found.add(child)) {
                    pending.add(child);
                }
            }
        }
        return found;
    }

    /** {@link #carriersOf(String, long, long[])} among every process of this view. */
    List<Long> carriersOf(String token, long notBeforeTicks) {
        return carriersOf(token, notBeforeTicks, listing());
    }

    /**
     * Every process among {@code candidates} whose initial environment holds the token, whoever its parent is
     * now. Only processes started at or after {@code notBeforeTicks} (the start time of the child the token was
     * given to) are read, and a process whose other token is known is not read again while its pid cannot have
     * been handed out anew (see {@link ProcReads#tokenUnlessReused}): a lookup costs what the processes new to
     * the lookups cost and what the tree's own cost, not what every candidate costs.
     */
    List<Long> carriersOf(String token, long notBeforeTicks, long[] candidates) {
        List<Long> found = new ArrayList<>();
        for (long pid : candidates) {
            String known = reads.tokenUnlessReused(pid, forks, PID_MAX);
            if (known != null && !known.equals(token)) {
                continue;
            }
            Stat stat = stat(pid);
            if (stat != null && stat.startTicks() >= notBeforeTicks && token.equals(tokenOf(pid, stat.startTicks()))) {
                found.add(pid);
            }
        }
        return found;
    }

    private Stat stat(long pid) {
        return reads.stat(pid, moment);
    }

    /**
     * The token of {@code pid}, read once per process (its start time tells a reused pid apart); an environment
     * that reads empty while the process is alive (it is in the middle of {@code execve}) is read again until it
     * is not, for up to {@value #UNSETTLED_WAIT_MS} ms.
     */
    private String tokenOf(long pid, long startTicks) {
        String known = reads.knownToken(pid, startTicks);
        if (known != null) {
            return known;
        }
        if (unsettled.contains(pid)) {
            return NO_TOKEN;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(UNSETTLED_WAIT_MS);
        while (true) {
            byte[] env = reads.environ(pid);
            if (env == null || env.length > 0 || settledEmpty(pid)) {
                String token = env == null ? NO_TOKEN : tokenIn(env);
                reads.rememberToken(pid, startTicks, token, counters);
                return token;
            }
            if (System.nanoTime() - deadline >= 0) {
                // Empty for that long: an environment that is empty indeed; a later view reads it again.
                unsettled.add(pid);
                return NO_TOKEN;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return NO_TOKEN;
            }
        }
    }

    /** True when an empty environment of {@code pid} is final: it is gone, a zombie or a kernel thread. */
    private static boolean settledEmpty(long pid) {
        Stat stat = Stat.read(pid);
        return stat == null || stat.state() == 'Z' || stat.state() == 'X' || (stat.flags() & KERNEL_THREAD) != 0;
    }

    /** The value of {@value ProcessSpec#TOKEN_ENV} in an environment (NUL-terminated {@code NAME=value}), or "". */
    private static String tokenIn(byte[] env) {
        byte[] prefix = TOKEN_PREFIX;
        int at = 0;
        while (at < env.length) {
            int end = at;
            while (end < env.length && env[end] != 0) {
                end++;
            }
            if (end - at >= prefix.length && startsWith(env, at, prefix)) {
                return new String(env, at + prefix.length, end - at - prefix.length, StandardCharsets.UTF_8);
            }
            at = end + 1;
        }
        return NO_TOKEN;
    }

    private static boolean startsWith(byte[] bytes, int at, byte[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
