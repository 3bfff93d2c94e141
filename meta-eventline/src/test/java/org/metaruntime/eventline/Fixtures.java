package org.metaruntime.eventline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.ProcessLeaks;

/**
 * Specs that run the shared event-line module fixture ({@link FixtureScripts#eventLineModule()}) and the proof, by a
 * {@link LeakCheck}, that nothing they started is left alive: every child appends its pid to {@code child.pids},
 * every grandchild to {@code grandchild.pids}, in a fresh directory per test.
 */
final class Fixtures implements BeforeEachCallback, AfterEachCallback {

    static final String MODULE = "fixture";

    private Path dir;
    private final LeakCheck leaks = LeakCheck.processes().pidFile(() -> pidFile("child"))
            .pidFile(() -> pidFile("grandchild")).threads("meta-" + MODULE + "-");

    /**
     * A JUnit extension ({@code @RegisterExtension final Fixtures fixtures = new Fixtures();}): a fresh pid
     * directory before each test, and after it the proof that nothing the test started is alive.
     */
    Fixtures() {
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        leaks.beforeEach(context);
        dir = Files.createTempDirectory("meta-eventline-test-");
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        leaks.afterEach(context);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(dir);
    }

    /** The directory the pid files are in. */
    Path dir() {
        return dir;
    }

    /** A spec running the event-line module fixture in {@code mode} ({@code FIXTURE_MODE}). */
    ProcessSpec.Builder module(String mode) {
        return base().command(FixtureScripts.eventLineModuleCommand()).env("FIXTURE_MODE", mode);
    }

    /** {@link #module(String)} whose child first starts a grandchild holding its stdout and stderr. */
    ProcessSpec.Builder moduleWithGrandchild(String mode) {
        return module(mode).env("FIXTURE_GRANDCHILD_PIDFILE", pidFile("grandchild").toString());
    }

    /** A spec of module {@link #MODULE} whose child records its pid; the caller sets the command. */
    ProcessSpec.Builder base() {
        return ProcessSpec.builder(MODULE).env("FIXTURE_PIDFILE", pidFile("child").toString());
    }

    /** The pids recorded so far by kind ("child", "grandchild"). */
    List<Long> pids(String kind) {
        return ProcessLeaks.pidsIn(pidFile(kind));
    }

    /** Asserts that exactly {@code children} child and {@code grandchildren} grandchild pids were recorded. */
    void assertStarted(int children, int grandchildren) {
        assertThat(pids("child")).as("child pids").hasSize(children);
        assertThat(pids("grandchild")).as("grandchild pids").hasSize(grandchildren);
    }

    /** The event id the one child recorded so far writes: {@code evt-fixture-<pid>}. */
    String eventId() {
        assertThat(pids("child")).as("child pids").hasSize(1);
        return "evt-" + MODULE + "-" + pids("child").get(0);
    }

    static boolean alive(long pid) {
        return ProcessLeaks.isAlive(pid);
    }

    private Path pidFile(String kind) {
        return dir.resolve(kind + ".pids");
    }
}
