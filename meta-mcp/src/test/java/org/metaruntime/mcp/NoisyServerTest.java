package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.mcp.internal.SkippedMessages;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.internal.SharedTimer;
import org.metaruntime.testing.LeakCheck;

/** A server that floods its stdout with lines that are not JSON costs the host's log a few entries, and still answers. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NoisyServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFile(() -> dir.resolve("pid")).zero("shared timer leases", SharedTimer::leases);

    @Test
    void aFloodOfNonJsonStdoutIsLoggedWithinBoundsWhileCallsAreAnswered() {
        ProcessSpec spec = Peers.python("noisy", dir.resolve("pid"), "--flood-stdout");
        long noise;
        long started = System.nanoTime();
        try (CapturedLog log = new CapturedLog("module 'noisy'", 20)) {
            McpConnection c = McpConnection.open(spec,
                    McpClientOptions.builder().protocolEra(McpProtocolEra.LEGACY).build(), T);
            try {
                for (int i = 0; i < 20; i++) {
                    assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "call " + i), T))
                            .isEqualTo(TextNode.valueOf("call " + i));
                }
                noise = Long.parseLong(c.callTool("noise", null, T).asText());
                while (noise < 20_000) { // the server has flooded long enough to matter
                    assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "more"), T))
                            .isEqualTo(TextNode.valueOf("more"));
                    noise = Long.parseLong(c.callTool("noise", null, T).asText());
                }
            } finally {
                c.close(T);
            }
            await().atMost(T).until(() -> log.markedLines() >= 2); // the count not yet told, at the end of stdout
            // the first line, one line per interval at most, and the count not yet told at the end
            long mostLines = 2 + (System.nanoTime() - started) / SkippedMessages.INTERVAL.toNanos();
            assertThat(log.markedLines()).as("log entries about the module: %s", log.kept()).isBetween(1L, mostLines);
            assertThat(log.bytes()).as("bytes logged while %d noise lines were written", noise).isLessThan(8 * 1024);
            assertThat(log.kept().get(0)).contains("skipped a stdout line that is not a JSON-RPC message")
                    .contains("noise 1: \\u001b[31mthis is not json").doesNotContain("\u001b");
            assertThat(log.kept()).last().asString()
                    .containsPattern("skipped \\d+ more: stdout lines that are not JSON-RPC messages");
        }
    }
}
