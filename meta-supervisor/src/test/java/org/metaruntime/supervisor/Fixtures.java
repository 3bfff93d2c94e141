package org.metaruntime.supervisor;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.ProcessLeaks;
import org.metaruntime.testing.Python;

/**
 * Starts the fixture program ({@code src/test/resources/fixtures/fixture.py}, one mode per behaviour) and proves
 * afterwards, with a {@link LeakCheck}, that none of its processes is alive. Each run appends its pid (and its
 * grandchildren's) to {@link #pidFile()}.
 * A JUnit extension: {@code @RegisterExtension final Fixtures fixtures = new Fixtures();} gives each test a fresh
 * pid file and checks, after the test, that every process it started is gone.
 */
final class Fixtures implements BeforeEachCallback, AfterEachCallback {

    private Path dir;
    private Path pidFile;
    private final List<ModuleProcess> started = new ArrayList<>();
    private final List<ProcessHandle> startedHandles = new ArrayList<>();
    private final Map<Long, Optional<ProcessHandle>> handles = new HashMap<>();
    private final LeakCheck leaks = LeakCheck.processes();

    /** Fixtures whose pid file lives in a temporary directory made before each test. */
    Fixtures() {
    }

    /** Fixtures whose pid file lives in {@code tempDir}; the test calls {@link #closeAndAssertNoneAlive()}. */
    Fixtures(Path tempDir) {
        this.pidFile = tempDir.resolve("pids.txt");
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        leaks.beforeEach(context);
        dir = Files.createTempDirectory("meta-supervisor-test-");
        pidFile = dir.resolve("pids.txt");
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        closeAndAssertNoneAlive();
        Files.deleteIfExists(pidFile);
        Files.deleteIfExists(dir);
    }

    Path pidFile() {
        return pidFile;
    }

    /** A spec running {@code fixture.py <mode> <args...>} with python3 (the modes are listed at its top). */
    ProcessSpec.Builder spec(String moduleId, String mode, String... args) {
        List<String> command = new ArrayList<>(List.of(python3(), program().toString(), mode));
        command.addAll(List.of(args));
        return ProcessSpec.builder(moduleId)
                .command(command)
                .env("FIXTURE_PID_FILE", pidFile.toString());
    }

    /** Starts and remembers the process, so that it is stopped after the test whatever happens. */
    ModuleProcess start(ProcessSpec spec, ProcessListener listener) {
        ModuleProcess process = ModuleProcess.start(spec, listener);
        started.add(process);
        ProcessHandle.of(process.pid()).ifPresent(startedHandles::add);
        pids();
        return process;
    }

    /**
     * The pids the fixtures wrote so far. The first time a pid is seen its handle (pid and start time) is kept,
     * so that a pid reused later by an unrelated process is not mistaken for the fixture's.
     */
    synchronized List<Long> pids() {
        if (!Files.exists(pidFile)) {
            return List.of();
        }
        List<Long> pids;
        try {
            pids = Files.readAllLines(pidFile, StandardCharsets.UTF_8).stream()
                    .filter(line -> !line.isBlank())
                    .map(line -> Long.parseLong(line.strip()))
                    .toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        for (long pid : pids) {
            handles.computeIfAbsent(pid, ProcessHandle::of);
        }
        return pids;
    }

    /** Waits until the fixtures wrote at least {@code count} pids. */
    List<Long> awaitPids(int count) {
        org.awaitility.Awaitility.await("fixture pids").atMost(ProcessLeaks.DEAD_WITHIN).until(() -> pids().size() >= count);
        return pids();
    }

    /**
     * Stops the children the test left running, then fails if any process a fixture started is still alive.
     * A child that already exited is not stopped again, so that what its exit left behind is checked as is.
     */
    void closeAndAssertNoneAlive() {
        for (ModuleProcess process : started) {
            if (process.isAlive()) {
                process.stop(StopLadder.immediate());
            }
            process.exitFuture().orTimeout(ProcessLeaks.DEAD_WITHIN.toSeconds(), TimeUnit.SECONDS).join();
        }
        pids();
        List<ProcessHandle> all = new ArrayList<>();
        synchronized (this) {
            handles.values().forEach(handle -> handle.ifPresent(all::add));
        }
        all.addAll(startedHandles);
        all.forEach(leaks::watch);
        leaks.assertNothingLeft();
        for (ModuleProcess process : started) {
            org.awaitility.Awaitility.await("exit of " + process).atMost(ProcessLeaks.DEAD_WITHIN)
                    .until(() -> !process.isAlive());
        }
    }

    static Path program() {
        URL url = Fixtures.class.getResource("/fixtures/fixture.py");
        if (url == null) {
            throw new IllegalStateException("no fixtures/fixture.py on the test class path");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The real python3 interpreter (see {@link Python#executable()}). */
    static String python3() {
        return Python.executable();
    }
}
