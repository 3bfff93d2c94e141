package org.metaruntime.gateway.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster options of the command line: {@code --state jdbc:postgresql://...}, {@code --advertise-url},
 * {@code --cluster-key-file}, and their exit codes. Nothing here starts a pod or reaches a database.
 */
class ClusterOptionsTest {

    private static final Path EXAMPLES = Path.of("").toAbsolutePath().getParent().resolve("examples/manifests");
    private static final String PG = "jdbc:postgresql://127.0.0.1:1/meta?user=gw&password=hunter2-secret";

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        List<String> all = new ArrayList<>(List.of("--manifests", EXAMPLES.toString()));
        all.addAll(List.of(args));
        return GatewayCommand.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static CommandLine parse(String... args) throws CommandLine.UsageException {
        List<String> all = new ArrayList<>(List.of("--manifests", "m"));
        all.addAll(List.of(args));
        return CommandLine.parse(all.toArray(String[]::new));
    }

    @Test
    void aPostgresqlStateIsAUrlAndADirectoryStaysAPath() throws Exception {
        CommandLine line = parse("--transport", "http", "--state", PG, "--cluster-key-file", "key",
                "--advertise-url", "http://gw-1.internal:3000");
        assertThat(line.stateUrl()).isEqualTo(PG);
        assertThat(line.state()).isNull();
        assertThat(line.clusterKeyFile()).isEqualTo(Path.of("key"));
        assertThat(line.advertiseUrl()).isEqualTo(URI.create("http://gw-1.internal:3000"));
        CommandLine dirState = parse("--state", "var/state");
        assertThat(dirState.state()).isEqualTo(Path.of("var/state"));
        assertThat(dirState.stateUrl()).isNull();
        assertThat(parse("--state", PG).stateUrl()).isEqualTo(PG); // stdio: one process, no cluster key needed
    }

    @Test
    void badClusterOptionsAreUsageErrors() {
        assertThatThrownBy(() -> parse("--transport", "http", "--state", PG))
                .hasMessageContaining("give --cluster-key-file FILE");
        assertThatThrownBy(() -> parse("--state", "jdbc:mysql://db/meta")).hasMessageContaining("jdbc:postgresql://");
        assertThatThrownBy(() -> parse("--cluster-key-file", "key")).hasMessageContaining("are for replicas");
        assertThatThrownBy(() -> parse("--state", "dir", "--advertise-url", "http://a:1")).hasMessageContaining("are for replicas");
        assertThatThrownBy(() -> parse("--transport", "http", "--state", PG, "--cluster-key-file", "k",
                "--advertise-url", "gw-1:3000")).hasMessageContaining("--advertise-url is an http or https URL");
    }

    @Test
    void exitTwoWithAUsageLineAndNeitherTheKeyNorThePasswordPrinted() throws Exception {
        assertThat(run("--transport", "http", "--state", PG)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--cluster-key-file").contains("usage: meta-gateway")
                .doesNotContain("hunter2-secret");

        err.reset();
        assertThat(run("--transport", "http", "--state", PG, "--cluster-key-file", dir.resolve("missing").toString()))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("cannot be read").doesNotContain("hunter2-secret");

        err.reset();
        Path key = Files.writeString(dir.resolve("key"), "tiny-key");
        assertThat(run("--transport", "http", "--state", PG, "--cluster-key-file", key.toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("at least 16 bytes").doesNotContain("tiny-key");
    }

    @Test
    void taskOptionsAreDurationsAndBadOnesExitTwoWithAUsageLine() throws Exception {
        CommandLine off = parse("--transport", "http");
        assertThat(off.taskAfter()).isNull();
        assertThat(off.taskTtl()).isEqualTo(java.time.Duration.ofHours(1));
        CommandLine on = parse("--transport", "http", "--task-after", "2s", "--task-ttl", "10m");
        assertThat(on.taskAfter()).isEqualTo(java.time.Duration.ofSeconds(2));
        assertThat(on.taskTtl()).isEqualTo(java.time.Duration.ofMinutes(10));
        assertThat(parse("--task-ttl", "5m").taskTtl()).isEqualTo(java.time.Duration.ofMinutes(5));
        assertThatThrownBy(() -> parse("--transport", "http", "--task-after", "soon")).hasMessageContaining("--task-after is a duration");
        assertThatThrownBy(() -> parse("--transport", "http", "--task-ttl", "0s")).hasMessageContaining("--task-ttl is a duration");
        assertThatThrownBy(() -> parse("--task-after", "2s")).hasMessageContaining("--transport http");

        assertThat(run("--transport", "http", "--task-after", "-1s")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--task-after").contains("usage: meta-gateway");
    }
}
