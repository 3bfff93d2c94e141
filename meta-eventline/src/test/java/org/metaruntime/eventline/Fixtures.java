package org.metaruntime.eventline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * The fixture programs under {@code src/test/resources/fixtures} and the proof that nothing they started
 * is left alive: every fixture process writes its pid (and its children's pids) into {@link #pidDir}.
 */
final class Fixtures {

    static final String MODULE = "fixture";

    private final Path pidDir;

    Fixtures(Path pidDir) {
        this.pidDir = pidDir;
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
        return base().command("python3", fixture("eventline_fixture.py").toString(), mode);
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
        List<Long> all = Stream.concat(pids("child").stream(), pids("grandchild").stream())
                .collect(Collectors.toList());
        await("fixture processes " + all + " gone").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> all.stream().noneMatch(Fixtures::alive));
        await("no child process of the JVM").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> ProcessHandle.current().children().noneMatch(ProcessHandle::isAlive));
        await("no thread of module '" + MODULE + "'").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> Thread.getAllStackTraces().keySet().stream()
                        .noneMatch(t -> t.isAlive() && t.getName().startsWith("meta-" + MODULE + "-")));
    }

    static boolean alive(long pid) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        return handle.isPresent() && handle.get().isAlive();
    }

    private static long readPid(Path file) {
        try {
            return Long.parseLong(Files.readString(file).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
