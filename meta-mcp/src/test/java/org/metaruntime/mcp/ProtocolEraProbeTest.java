package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;

/**
 * How the client finds a stdio server's era: the {@code server/discover} probe first on each new process, the
 * fallback to {@code initialize} on the same process for any answer that is not a modern one (whatever its error
 * code) or silence within the probe bound, a new process without a probe when the first exits on the probe, and the
 * pins.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProtocolEraProbeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    private ProcessSpec server(String onDiscover) {
        return ProcessSpec.builder("era").command(FixtureScripts.mcpServerCommand("--protocol", "2025-11-25",
                "--on-discover", onDiscover, "--state", dir.resolve("state").toString(),
                "--record-methods", dir.resolve("record").toString())).build();
    }

    /** The methods each process read, as "pid method" lines. */
    private List<String[]> record() throws Exception {
        List<String[]> lines = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("record"))) {
            lines.add(line.split(" ", 2));
        }
        return lines;
    }

    private void assertLegacyOnOneProcess(McpConnection c) throws Exception {
        assertThat(c.protocolVersion()).isEqualTo("2025-11-25");
        assertThat(c.protocolEra()).isEqualTo(McpProtocolEra.LEGACY);
        assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "x"), T)).isEqualTo(TextNode.valueOf("x"));
        List<String[]> record = record();
        assertThat(record.get(0)[1]).isEqualTo("server/discover");
        assertThat(record.get(1)[1]).isEqualTo("initialize");
        assertThat(record).allSatisfy(line -> assertThat(line[0]).isEqualTo(record.get(0)[0]));
    }

    @Test
    void anErrorAnswerFallsBackToInitializeOnTheSameProcess() throws Exception {
        try (McpConnection c = McpConnection.open(server("error"), McpClientOptions.defaults(), T)) {
            assertLegacyOnOneProcess(c);
        }
    }

    @Test
    void anAnswerThatIsNotADiscoverResultFallsBack() throws Exception {
        try (McpConnection c = McpConnection.open(server("garbage"), McpClientOptions.defaults(), T)) {
            assertLegacyOnOneProcess(c);
        }
    }

    @Test
    void aDiscoverResultWithoutTheModernVersionFallsBack() throws Exception {
        try (McpConnection c = McpConnection.open(server("legacy-result"), McpClientOptions.defaults(), T)) {
            assertLegacyOnOneProcess(c);
        }
    }

    @Test
    void silenceFallsBackOnceTheProbeBoundPassed() throws Exception {
        long start = System.nanoTime();
        try (McpConnection c = McpConnection.open(server("hang"), McpClientOptions.defaults(), T)) {
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertLegacyOnOneProcess(c);
            assertThat(tookMs).as("the probe waits its bound of 2 s, not the connect timeout").isBetween(2000L, 15_000L);
        }
    }

    @Test
    void aServerThatExitsOnTheProbeIsStartedAgainWithoutAProbe() throws Exception {
        try (McpConnection c = McpConnection.open(server("exit"), McpClientOptions.defaults(), T)) {
            assertThat(c.protocolVersion()).isEqualTo("2025-11-25");
            assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "y"), T)).isEqualTo(TextNode.valueOf("y"));
            List<String[]> record = record();
            assertThat(record.get(0)[1]).isEqualTo("server/discover");
            assertThat(record.get(1)[1]).isEqualTo("initialize");
            assertThat(record.get(1)[0]).as("a new process").isNotEqualTo(record.get(0)[0]);
            assertThat(record.subList(1, record.size())).noneMatch(line -> line[1].equals("server/discover"));
            assertThat(Long.parseLong(record.get(1)[0])).isEqualTo(c.pid());
            Peers.assertGone(Long.parseLong(record.get(0)[0]));
        }
    }

    @Test
    void aLegacyPinSendsNoProbe() throws Exception {
        try (McpConnection c = McpConnection.open(server("exit"),
                McpClientOptions.builder().protocolEra(McpProtocolEra.LEGACY).build(), T)) {
            c.callTool("echo", JSON.createObjectNode().put("text", "z"), T);
            assertThat(record()).noneMatch(line -> line[1].equals("server/discover"));
            assertThat(record().get(0)[1]).isEqualTo("initialize");
        }
    }

    @Test
    void aModernPinRefusesALegacyServerWithTheVersionsItNamed() {
        McpBoundaryException e = catchThrowableOfType(McpBoundaryException.class, () -> McpConnection.open(
                server("legacy-result"), McpClientOptions.builder().protocolEra(McpProtocolEra.MODERN).build(), T));
        assertThat(e.error()).isEqualTo(new McpBoundaryError.UnsupportedProtocol("era", McpProtocolEra.MODERN,
                List.of("2025-11-25")));
        assertThat(e.error().message()).contains("2026-07-28").contains("2025-11-25");
    }

    @Test
    void aModernPinRefusesAServerThatAnswersWithAnError() {
        McpBoundaryException e = catchThrowableOfType(McpBoundaryException.class, () -> McpConnection.open(
                server("error"), McpClientOptions.builder().protocolEra(McpProtocolEra.MODERN).build(), T));
        assertThat(e.error()).isEqualTo(new McpBoundaryError.UnsupportedProtocol("era", McpProtocolEra.MODERN, List.of()));
    }
}
