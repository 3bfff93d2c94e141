package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * Unicode crosses the boundary intact when the JVM's platform charset is not UTF-8. Surefire runs this class
 * in its own JVM with {@code -Dfile.encoding=ISO-8859-1}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PlatformCharsetTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(30);
    private static final String TEXT = "naïve 日本語 中文 한국어 🎉👩‍💻";

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @Test
    void runsOnALatin1Platform() {
        assertThat(Charset.defaultCharset()).isEqualTo(StandardCharsets.ISO_8859_1);
    }

    @Test
    void unicodeSurvivesThePythonServer() {
        McpProbeResult probe = McpProbe.probe(Peers.python("py", dir.resolve("pid")), McpClientOptions.defaults(), T);
        try {
            JsonNode payload = probe.connection().callTool("unicode", JSON.createObjectNode().put("text", TEXT), T);
            assertThat(payload.get("got").asText()).isEqualTo(TEXT);
            assertThat(payload.get("fixed").asText()).isEqualTo("héllo 世界 🎉");
        } finally {
            probe.connection().close(T);
        }
        Peers.assertGone(dir.resolve("pid"));
    }

    @Test
    void unicodeSurvivesServerEverything() {
        McpProbeResult probe = McpProbe.probe(Peers.everything("everything"), McpClientOptions.defaults(), T);
        long pid = probe.connection().pid();
        try {
            assertThat(probe.connection().callTool("echo", JSON.createObjectNode().put("message", TEXT), T))
                    .isEqualTo(TextNode.valueOf("Echo: " + TEXT));
        } finally {
            probe.connection().close(T);
        }
        Peers.assertGone(pid);
    }
}
