package org.metaruntime.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The one check that a test left nothing behind, as a JUnit extension. After the test's own {@code @AfterEach}
 * methods (which close what the test opened), it waits at most {@link ProcessLeaks#DEAD_WITHIN} ({@link #within})
 * until
 *
 * <ul>
 *   <li>every process this JVM started during the test (a descendant that was not alive before it) is gone;</li>
 *   <li>every process listed in the test's pid files ({@link #pidFile}: one {@code <pid> [<token>]} a line,
 *       appended by the fixture programs, so that a grandchild re-parented to init is checked too) is gone;</li>
 *   <li>no thread named with one of its {@link #threads prefixes} that was not alive before the test is left;</li>
 *   <li>each of its {@link #zero counters} (leases of a shared timer, ...) is zero;</li>
 *   <li>with {@link #descriptors()}, the JVM holds no more pipes than before the test;</li>
 * </ul>
 *
 * and fails the test with an {@link AssertionError} naming what is left (each process with its pid and command
 * line). A process or thread alive before the test is not the test's. Zombies and reused pids do not count.
 *
 * <pre>{@code
 * @TempDir Path dir;
 *
 * @RegisterExtension
 * final LeakCheck leaks = LeakCheck.processes().pidFile(() -> dir.resolve("pids")).threads("meta-core-");
 *
 * @AfterEach
 * void close() {
 *     runtime.close();          // the check runs after this
 * }
 * }</pre>
 *
 * <p>One instance per test class instance; not for tests running concurrently in one JVM.
 */
public final class LeakCheck implements BeforeEachCallback, AfterEachCallback {

    private static final Duration POLL = Duration.ofMillis(20);

    private final List<Supplier<List<Path>>> pidFiles = new ArrayList<>();
    private final List<String> threadPrefixes = new ArrayList<>();
    private final Map<String, IntSupplier> counters = new LinkedHashMap<>();
    private boolean descriptors;
    private Duration within = ProcessLeaks.DEAD_WITHIN;

    private Set<ProcessHandle> processesBefore = Set.of();
    private Set<Thread> threadsBefore = Set.of();
    private long pipesBefore;
    private final List<ProcessHandle> watched = new ArrayList<>();

    private LeakCheck() {
    }

    /** A check of the processes the test starts (descendants of the JVM, and those of its pid files). */
    public static LeakCheck processes() {
        return new LeakCheck();
    }

    /**
     * Also checks the pids listed in the file {@code file} gives after the test (a missing file lists none). The
     * supplier is asked after the test, so it may name a {@code @TempDir} field.
     */
    public LeakCheck pidFile(Supplier<Path> file) {
        Objects.requireNonNull(file, "file");
        pidFiles.add(() -> List.of(file.get()));
        return this;
    }

    /**
     * Also checks the pids listed in every file of the directory {@code dir} gives after the test whose name ends
     * with {@code suffix} (e.g. {@code ".pids"}); a missing directory lists none.
     */
    public LeakCheck pidFilesIn(Supplier<Path> dir, String suffix) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(suffix, "suffix");
        pidFiles.add(() -> {
            Path folder = dir.get();
            if (!Files.isDirectory(folder)) {
                return List.of();
            }
            try (Stream<Path> files = Files.list(folder)) {
                return files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return this;
    }

    /** Also checks that no new live thread's name starts with one of {@code prefixes}. */
    public LeakCheck threads(String... prefixes) {
        threadPrefixes.addAll(List.of(prefixes));
        return this;
    }

    /** Also checks that {@code count} (e.g. the leases of a shared timer) comes back to zero. */
    public LeakCheck zero(String what, IntSupplier count) {
        counters.put(Objects.requireNonNull(what, "what"), Objects.requireNonNull(count, "count"));
        return this;
    }

    /** Also checks that the JVM holds no more pipes than before the test (Linux; skipped elsewhere). */
    public LeakCheck descriptors() {
        descriptors = true;
        return this;
    }

    /** How long what the test started gets to disappear (default {@link ProcessLeaks#DEAD_WITHIN}). */
    public LeakCheck within(Duration wait) {
        within = Objects.requireNonNull(wait, "wait");
        return this;
    }

    /** Checks this very process too, for the rest of the current test (e.g. one started outside the JVM's tree). */
    public synchronized void watch(ProcessHandle process) {
        watched.add(Objects.requireNonNull(process, "process"));
    }

    @Override
    public synchronized void beforeEach(ExtensionContext context) {
        watched.clear();
        processesBefore = ProcessHandle.current().descendants().filter(ProcessLeaks::isAlive)
                .collect(Collectors.toSet());
        threadsBefore = new HashSet<>(Thread.getAllStackTraces().keySet());
        pipesBefore = descriptors ? ProcessLeaks.openPipes() : -1;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        assertNothingLeft();
    }

    /**
     * Waits at most {@link #within} until nothing the test started is left, as after the test; a
     * test calls it to check in the middle (after each of several cycles).
     *
     * @throws AssertionError naming what is still there
     */
    public void assertNothingLeft() {
        try {
            await("nothing left by the test").atMost(within).pollDelay(Duration.ZERO)
                    .pollInterval(POLL).until(() -> left().isEmpty());
        } catch (ConditionTimeoutException e) {
            List<String> left = left();
            if (!left.isEmpty()) {
                throw new AssertionError("still alive or held after the test: " + String.join("; ", left));
            }
        }
    }

    /** What is left now, described; empty when nothing is. */
    private synchronized List<String> left() {
        List<String> left = new ArrayList<>();
        ProcessHandle.current().descendants().filter(p -> !processesBefore.contains(p)).filter(ProcessLeaks::isAlive)
                .forEach(p -> left.add(ProcessLeaks.describe(p)));
        for (Path file : pidFiles.stream().flatMap(files -> files.get().stream()).toList()) {
            for (ProcessLeaks.Spawned spawned : ProcessLeaks.spawnedIn(file)) {
                if (ProcessLeaks.isAlive(spawned)) {
                    String described = "pid " + spawned.pid() + " of " + file.getFileName();
                    if (left.stream().noneMatch(l -> l.startsWith("pid " + spawned.pid() + ":"))) {
                        left.add(described);
                    }
                }
            }
        }
        watched.stream().filter(ProcessLeaks::isAlive).forEach(p -> left.add(ProcessLeaks.describe(p)));
        if (!threadPrefixes.isEmpty()) {
            Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                    .filter(t -> !threadsBefore.contains(t))
                    .filter(t -> threadPrefixes.stream().anyMatch(t.getName()::startsWith))
                    .forEach(t -> left.add("thread " + t.getName()));
        }
        counters.forEach((what, count) -> {
            int now = count.getAsInt();
            if (now != 0) {
                left.add(what + " = " + now);
            }
        });
        if (descriptors && pipesBefore >= 0) {
            long pipes = ProcessLeaks.openPipes();
            if (pipes > pipesBefore) {
                left.add((pipes - pipesBefore) + " more pipe(s) than before the test");
            }
        }
        return left;
    }
}
