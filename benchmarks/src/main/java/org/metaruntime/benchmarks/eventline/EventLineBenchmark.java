package org.metaruntime.benchmarks.eventline;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.metaruntime.eventline.EventLineRunner;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.ProcessSpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A one-shot event-line run ({@link EventLineRunner#runOnce}: spawn, close stdin, first line, normalise,
 * wait for the exit, stop the tree) against the floor: a bare {@link ProcessBuilder} start, one line read,
 * {@code waitFor}. Both run the same shell script, which prints one event line and exits.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar 'eventline.EventLineBenchmark'}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 8, time = 2)
@Fork(2)
public class EventLineBenchmark {

    static final String LINE = "{\"event_id\":\"evt-bench\",\"source\":\"module\",\"timestamp_ms\":1,"
            + "\"module\":\"bench\",\"event_type\":\"done\",\"payload\":{\"ok\":true}}";

    private Path dir;
    private List<String> command;
    private ProcessSpec spec;
    private EventLineRunner runner;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("meta-eventline-bench");
        Path script = dir.resolve("one_line.sh");
        Files.writeString(script, "#!/bin/sh\nprintf '%s\\n' '" + LINE + "'\n");
        command = List.of("sh", script.toString());
        spec = ProcessSpec.builder("bench").command(command).build();
        runner = EventLineRunner.create();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }

    /** The event-line boundary: spawn, first line, normalise, exit, stop. */
    @Benchmark
    public EventEnvelope<UnifiedEvent> eventLineRunOnce() {
        return runner.runOnce(spec, Duration.ofSeconds(10));
    }

    /**
     * The process layer alone, as the event-line run uses it but without normalisation: spawn, close stdin,
     * first line, exit. Separates the boundary's own cost from the process layer's.
     */
    @Benchmark
    public String processLayerOnly() throws Exception {
        CompletableFuture<String> line = new CompletableFuture<>();
        ModuleProcess process = ModuleProcess.start(spec, line::complete);
        process.closeStdin();
        String first = line.get(10, TimeUnit.SECONDS);
        process.exitFuture().get(10, TimeUnit.SECONDS);
        return first;
    }

    /** The floor: ProcessBuilder, read one line, waitFor. */
    @Benchmark
    public String bareProcessBuilder() throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        String line;
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            line = out.readLine();
        }
        process.waitFor();
        process.getErrorStream().close();
        return line;
    }
}
