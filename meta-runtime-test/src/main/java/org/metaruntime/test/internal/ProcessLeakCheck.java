package org.metaruntime.test.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.supervisor.ModuleSupervisorReport;

/**
 * The processes of one test's runtime and the check that none outlives it. Every module process carries
 * {@code <variable>=<run>} in its environment; the check knows a process as the runtime's when it was a module
 * process or a descendant of one at a {@link #record} (once after start, once before close), or when its initial
 * environment ({@code /proc/<pid>/environ}) holds the marker. Thread-safe.
 */
public final class ProcessLeakCheck {

    private static final Path PROC = Path.of("/proc");
    private static final Duration POLL = Duration.ofMillis(20);

    private final String variable;
    private final String run;
    private final Map<Long, ProcessHandle> seen = new LinkedHashMap<>();

    /** A check for the processes marked {@code variable=run}. */
    public ProcessLeakCheck(String variable, String run) {
        this.variable = Objects.requireNonNull(variable, "variable");
        this.run = Objects.requireNonNull(run, "run");
    }

    /** Records the runtime's module processes and their descendants as they are now. */
    public synchronized void record(UnifiedRuntime runtime) {
        for (ModuleSupervisorReport report : runtime.supervisorReport().values()) {
            report.pid().ifPresent(pid -> ProcessHandle.of(pid).ifPresent(module -> {
                remember(module);
                module.descendants().forEach(this::remember);
            }));
        }
        ProcessHandle.current().descendants().filter(this::marked).forEach(this::remember);
    }

    private void remember(ProcessHandle handle) {
        seen.putIfAbsent(handle.pid(), handle);
    }

    /**
     * The runtime's processes still alive once {@code within} has passed (sooner when none is left): the recorded
     * ones and every live process whose environment holds the marker. Zombies and reused pids do not count.
     */
    public List<ProcessHandle> survivors(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            List<ProcessHandle> alive = alive();
            if (alive.isEmpty() || System.nanoTime() - deadline >= 0) {
                return alive;
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return alive();
            }
        }
    }

    private List<ProcessHandle> alive() {
        Map<Long, ProcessHandle> candidates;
        synchronized (this) {
            candidates = new LinkedHashMap<>(seen);
        }
        markedProcesses().forEach(handle -> candidates.putIfAbsent(handle.pid(), handle));
        List<ProcessHandle> alive = new ArrayList<>();
        for (ProcessHandle handle : candidates.values()) {
            if (handle.pid() != ProcessHandle.current().pid() && isAlive(handle)) {
                alive.add(handle);
            }
        }
        return alive;
    }

    /** Kills each process with SIGKILL. */
    public static void kill(List<ProcessHandle> processes) {
        processes.forEach(ProcessHandle::destroyForcibly);
    }

    /** {@code pid <pid>: <command line>}, the command line read from {@code /proc} or the process's info. */
    public static String describe(ProcessHandle handle) {
        String command = commandLine(handle.pid()).or(() -> handle.info().commandLine()).orElse("(command unknown)");
        return "pid " + handle.pid() + ": " + printable(command);
    }

    private static Optional<String> commandLine(long pid) {
        try {
            byte[] bytes = Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("cmdline"));
            String text = new String(bytes, StandardCharsets.UTF_8).replace('\0', ' ').strip();
            return text.isEmpty() ? Optional.empty() : Optional.of(text);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String printable(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    /** Every process of the machine whose initial environment holds the marker; none where there is no /proc. */
    private Stream<ProcessHandle> markedProcesses() {
        if (!Files.isDirectory(PROC.resolve("self"))) {
            return Stream.empty();
        }
        List<ProcessHandle> found = new ArrayList<>();
        try (Stream<Path> entries = Files.list(PROC)) {
            entries.map(path -> path.getFileName().toString()).filter(ProcessLeakCheck::isPid).map(Long::parseLong)
                    .filter(this::marked).forEach(pid -> ProcessHandle.of(pid).ifPresent(found::add));
        } catch (IOException e) {
            return Stream.empty();
        }
        return found.stream();
    }

    private boolean marked(ProcessHandle handle) {
        return marked(handle.pid());
    }

    private boolean marked(long pid) {
        byte[] environ;
        try {
            environ = Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("environ"));
        } catch (IOException | RuntimeException e) {
            return false;
        }
        String wanted = variable + "=" + run;
        int start = 0;
        for (int i = 0; i <= environ.length; i++) {
            if (i == environ.length || environ[i] == 0) {
                if (i - start == wanted.length()
                        && new String(environ, start, i - start, StandardCharsets.UTF_8).equals(wanted)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    private static boolean isPid(String name) {
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }

    /** Whether this very process (pid and start time) has not exited; a zombie has. */
    static boolean isAlive(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(PROC.resolve(Long.toString(handle.pid())).resolve("stat"),
                    StandardCharsets.ISO_8859_1);
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException e) {
            return !Files.isDirectory(PROC.resolve("self"));
        }
    }
}
