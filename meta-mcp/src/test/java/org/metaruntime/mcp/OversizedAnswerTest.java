package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.mcp.internal.LineHead;
import org.metaruntime.supervisor.ProcessSpec;

/** An answer line over the line limit: the call it answered fails at once when it can be known. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class OversizedAnswerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(30);
    private static final Duration LONG = Duration.ofMinutes(5);
    private static final int LIMIT = 64 * 1024;

    @TempDir
    Path dir;

    @RegisterExtension
    final OpenConnections opened = new OpenConnections();

    private McpConnection open(int maxLineBytes) {
        ProcessSpec spec = ProcessSpec.builder("py").command(Peers.python("py", dir.resolve("pid")).command())
                .maxLineBytes(maxLineBytes).build();
        McpConnection c = McpProbe.probe(spec, McpClientOptions.defaults(), T).connection();
        opened.add(c);
        return c;
    }

    private static ObjectNode large(int bytes) {
        return JSON.createObjectNode().put("bytes", bytes);
    }

    private static McpBoundaryError errorOf(McpToolCall call) {
        return ((McpBoundaryException) catchThrowableOfType(CompletionException.class, call.payload()::join).getCause())
                .error();
    }

    @Test
    void aFiftyMegabyteAnswerFailsItsCallAtOnceAgainstTheDefaultLimit() {
        McpConnection c = open(16 * 1024 * 1024);
        List<McpToolCall> hanging = List.of(c.startCall("hang", null, McpCallOptions.of(LONG)),
                c.startCall("hang", null, McpCallOptions.of(LONG)));
        McpToolCall big = c.startCall("large", large(50 * 1000 * 1000), McpCallOptions.of(LONG));
        assertThat(errorOf(big)).isEqualTo(new McpBoundaryError.LineTooLong("py", "call_tool:large", 16 * 1024 * 1024));
        assertThat(hanging).allSatisfy(h -> assertThat(h.payload()).isNotDone());
        assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "after"), T)).isEqualTo(TextNode.valueOf("after"));
        hanging.forEach(McpToolCall::cancel);
    }

    @Test
    void theOnlyCallInFlightFailsAtOnceWhenTheIdIsNotInTheFirstBytes() {
        McpConnection c = open(LIMIT);
        McpToolCall big = c.startCall("large", large(200_000).put("id_last", true), McpCallOptions.of(LONG));
        assertThat(errorOf(big)).isEqualTo(new McpBoundaryError.LineTooLong("py", "call_tool:large", LIMIT));
    }

    @Test
    void withSeveralCallsAndNoIdTheCallThatTimesOutSaysALineWasSkipped() {
        McpConnection c = open(LIMIT);
        McpToolCall hanging = c.startCall("hang", null, McpCallOptions.of(LONG));
        McpToolCall big = c.startCall("large", large(200_000).put("id_last", true), McpCallOptions.of(Duration.ofSeconds(3)));
        McpBoundaryError e = errorOf(big);
        assertThat(e).isInstanceOfSatisfying(McpBoundaryError.Timeout.class, t -> {
            assertThat(t.operation()).isEqualTo("call_tool:large");
            assertThat(t.detail()).contains("longer than " + LIMIT + " bytes");
        });
        assertThat(e.message()).contains("skipped");
        assertThat(hanging.payload()).isNotDone();
        hanging.cancel();
    }

    @Test
    void theHeadOfALineTellsItsTopLevelIdAndMethod() {
        assertThat(LineHead.read("{\"jsonrpc\":\"2.0\",\"id\":\"meta-7\",\"result\":{\"content\":[{\"id\":\"x")).isEqualTo(
                new LineHead.Facts("meta-7", false));
        assertThat(LineHead.read("{\"result\":{\"id\":\"nested\",\"text\":\"xxxxx")).isEqualTo(new LineHead.Facts(null, false));
        assertThat(LineHead.read("{\"id\": 12 , \"result\":")).isEqualTo(new LineHead.Facts("12", false));
        assertThat(LineHead.read("{\"method\":\"notifications/message\",\"params\":{\"data\":\"")).isEqualTo(
                new LineHead.Facts(null, true));
        assertThat(LineHead.read("{\"id\":\"meta-")).isEqualTo(new LineHead.Facts(null, false));
        assertThat(LineHead.read("{\"text\":\"a \\\"id\\\": \\\"fake\\\"\",\"id\":\"real\"")).isEqualTo(
                new LineHead.Facts("real", false));
    }
}
