package org.metaruntime.eventline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.testing.ProcessLeaks;
import org.metaruntime.testing.Python;

/**
 * The fixture programs under {@code src/test/resources/fixtures} and the proof that nothing they started
 * is left alive: every fixture process writes its pid (and its children's pids) into {@link #pidDir}.
 */
final class Fixtures implements BeforeEachCallback, AfterEachCallback {

    static final String MODULE = "fixture";

    private Path pidDir;

    /**
     * A JUnit extension ({@code @RegisterExtension final Fixtures fixtures = new Fixtures();}): a fresh pid
     * directory before each test, and after it the proof that nothing the test started is alive.
     */
    Fixtures() {
    }

    /** Fixtures recording into {@code pidDir}; the test calls {@link #assertNoneAlive()}. */
    Fixtures(Path pidDir) {
        this.pidDir = pidDir;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        pidDir = Files.createTempDirectory("meta-eventline-test-");
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        assertNoneAlive();
        try (Stream<Path> files = Files.list(pidDir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(pidDir);
    }

    /** The directory the fixtures record their pids in. */
    Path dir() {
        return pidDir;
    }

    static Path fixture(String name) {
        try {
            return Path.of(Fixtures.class.getResource("/fixtures/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A spec running the Python fixture in {@code mode}. */
    ProcessSpec.Builder python(String mode) {
        return base().command(Python.executable(), fixture("eventline_fixture.py").toString(), mode);
    }

    /** A spec running a shell fixture. */
    ProcessSpec.Builder shell(String script) {
        return base().command("sh", fixture(script).toString());
    }

    ProcessSpec.Builder base() {
        return ProcessSpec.builder(MODULE).env("FIXTURE_PID_DIR", pidDir.toString()).env("FIXTURE_MODULE", MODULE);
    }

    /** The pids the fixtures recorded, by kind ("child", "grandchild"). */
    List<Long> pids(String kind) {
        try (Stream<Path> files = Files.list(pidDir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(kind + "-"))
                    .map(Fixtures::readPid).collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts that exactly {@code children} child and {@code grandchildren} grandchild pids were recorded. */
    void assertStarted(int children, int grandchildren) {
        assertThat(pids("child")).as("child pids").hasSize(children);
        assertThat(pids("grandchild")).as("grandchild pids").hasSize(grandchildren);
    }

    /**
     * Waits (bounded) until no process a fixture recorded is alive, the JVM has no child left, and no
     * per-child thread of the module ({@code meta-fixture-...}) is left.
     */
    void assertNoneAlive() {
        ProcessLeaks.assertAllGone(Stream.concat(pids("child").stream(), pids("grandchild").stream())
                .collect(Collectors.toList()));
        ProcessLeaks.assertNoChildProcess();
        ProcessLeaks.assertNoThreadNamed("meta-" + MODULE + "-");
    }

    static boolean alive(long pid) {
        return ProcessLeaks.isAlive(pid);
    }

    private static long readPid(Path file) {
        try {
            return Long.parseLong(Files.readString(file).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
