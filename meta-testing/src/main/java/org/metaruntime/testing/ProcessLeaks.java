package org.metaruntime.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What {@link LeakCheck} is made of: whether a process is still the live one a fixture started, the pids the
 * fixtures record, a process's command line, the JVM's open pipes; and waits on them for the checks a test makes
 * in its middle. Every wait is bounded (a killed orphan is reaped by init a moment later) and never sleeps for a
 * fixed time. Stateless and thread-safe.
 *
 * <pre>{@code
 * ProcessLeaks.assertDead(child.toHandle());
 * }</pre>
 */
public final class ProcessLeaks {

    /** How long a process gets to disappear. */
    public static final Duration DEAD_WITHIN = Duration.ofSeconds(15);

    private static final Path PROC = Path.of("/proc");

    private ProcessLeaks() {
    }

    /**
     * A process a fixture recorded: its pid and, when it wrote one after the pid, the process layer's
     * {@code META_PROCESS_TOKEN} it inherited (empty when none).
     */
    public record Spawned(long pid, String token) {
    }

    /**
     * The processes a fixture appended to {@code file}, one {@code <pid> [<token>]} a line; empty when the file does
     * not exist. A line that is not (yet) a whole pid is skipped.
     */
    public static List<Spawned> spawnedIn(Path file) {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Spawned> spawned = new ArrayList<>();
        for (String line : lines) {
            String[] parts = line.strip().split("\\s+", 2);
            if (!parts[0].isEmpty() && parts[0].chars().allMatch(Character::isDigit)) {
                spawned.add(new Spawned(Long.parseLong(parts[0]), parts.length > 1 ? parts[1] : ""));
            }
        }
        return spawned;
    }

    /**
     * Whether the process is still alive and still the one that was spawned: on Linux, when it recorded a token,
     * its environment must hold it, so a reused pid is not mistaken for a survivor; a zombie is not alive.
     */
    public static boolean isAlive(Spawned process) {
        if (!isAlive(process.pid())) {
            return false;
        }
        if (process.token().isEmpty() || !Files.isDirectory(PROC.resolve("self"))) {
            return true;
        }
        try {
            return new String(Files.readAllBytes(PROC.resolve(Long.toString(process.pid())).resolve("environ")),
                    StandardCharsets.UTF_8).contains("META_PROCESS_TOKEN=" + process.token());
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code pid <pid>: <command line>}, the command line read from {@code /proc} or the process's info. */
    public static String describe(ProcessHandle handle) {
        String command = null;
        try {
            byte[] bytes = Files.readAllBytes(PROC.resolve(Long.toString(handle.pid())).resolve("cmdline"));
            command = new String(bytes, StandardCharsets.UTF_8).replace('\0', ' ').strip();
        } catch (IOException | RuntimeException e) {
            // not on Linux, or gone meanwhile
        }
        if (command == null || command.isEmpty()) {
            command = handle.info().commandLine().orElse("(command unknown)");
        }
        return "pid " + handle.pid() + ": " + command;
    }

    /** The JVM's open pipes (Linux; -1 elsewhere). */
    public static long openPipes() {
        Path fds = PROC.resolve("self").resolve("fd");
        if (!Files.isDirectory(fds)) {
            return -1;
        }
        long pipes = 0;
        try (Stream<Path> list = Files.list(fds)) {
            for (Path fd : (Iterable<Path>) list::iterator) {
                try {
                    if (Files.readSymbolicLink(fd).toString().startsWith("pipe:")) {
                        pipes++;
                    }
                } catch (IOException closedMeanwhile) {
                    // closed while listed
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pipes;
    }

    /**
     * The pids a fixture appended to {@code file}, one a line (a line may go on after the pid, e.g.
     * {@code "<pid> <token>"}); empty when the file does not exist.
     */
    public static List<Long> pidsIn(Path file) {
        return spawnedIn(file).stream().map(Spawned::pid).toList();
    }

    /** Fails unless every process in {@code pids} is gone (or a zombie) within {@link #DEAD_WITHIN}. */
    public static void assertAllGone(Collection<Long> pids) {
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(ProcessLeaks::assertDead);
        }
    }

    /** Fails unless this process (pid and start time) is gone (or a zombie) within {@link #DEAD_WITHIN}. */
    public static void assertDead(ProcessHandle handle) {
        await("pid " + handle.pid() + " to be dead").atMost(DEAD_WITHIN).pollInterval(Duration.ofMillis(20))
                .until(() -> !isAlive(handle));
    }

    /** Fails unless the JVM has no live child process within {@link #DEAD_WITHIN}. */
    public static void assertNoChildProcess() {
        await("no child process of the JVM").atMost(DEAD_WITHIN).pollInterval(Duration.ofMillis(20))
                .until(() -> ProcessHandle.current().children().noneMatch(ProcessLeaks::isAlive));
    }

    /** Fails unless no live thread's name starts with {@code prefix} within {@link #DEAD_WITHIN}. */
    public static void assertNoThreadNamed(String prefix) {
        await("no thread named " + prefix + "*").atMost(DEAD_WITHIN).pollInterval(Duration.ofMillis(20))
                .until(() -> Thread.getAllStackTraces().keySet().stream()
                        .noneMatch(t -> t.isAlive() && t.getName().startsWith(prefix)));
    }

    /** Whether {@code pid} is a live process (a zombie is not). */
    public static boolean isAlive(long pid) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        return handle.isPresent() && isAlive(handle.get());
    }

    /**
     * Whether this very process (same pid and start time, so a reused pid does not count) has not exited; a zombie
     * (exited, not yet reaped) counts as exited.
     */
    public static boolean isAlive(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return false;
        }
        if (!Files.isDirectory(PROC.resolve("self"))) {
            return true;
        }
        try {
            String text = Files.readString(PROC.resolve(Long.toString(handle.pid())).resolve("stat"),
                    StandardCharsets.ISO_8859_1);
            char state = text.charAt(text.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException e) {
            return false;
        }
    }
}
