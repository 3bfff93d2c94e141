package org.metaruntime.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;

/**
 * {@link ToolCatalog#settled()} completes once the changes announced so far are re-read: a change announced while a
 * re-read is under way is waited for too, and a re-read that times out leaves the list as it was. A manual scheduler
 * drives the re-read's timeout; the server's answers are written by the test.
 */
class ToolCatalogTest {

    private final ManualScheduler scheduler = new ManualScheduler();
    private final RecordingWire wire = new RecordingWire();
    private final CallWindow window = new CallWindow("m", 4, 16, scheduler, wire);
    private final ToolCatalog catalog = new ToolCatalog(window, null);

    @Test
    void withNoChangeAnnouncedTheListIsSettledAtOnce() {
        assertThat(catalog.settled()).isCompletedWithValue(List.of());
    }

    @Test
    void aChangeAnnouncedDuringAReReadIsWaitedForToo() {
        catalog.refresh();
        CompletableFuture<List<McpSchema.Tool>> first = catalog.settled();
        catalog.refresh();
        CompletableFuture<List<McpSchema.Tool>> second = catalog.settled();
        assertThat(lists()).as("one re-read at a time").hasSize(1);

        answerLast("a");
        assertThat(first).isDone();
        assertThat(names(first.join())).containsExactly("a");
        assertThat(second).as("the second change is re-read next").isNotDone();
        assertThat(lists()).hasSize(2);

        answerLast("a", "b");
        assertThat(names(second.join())).containsExactly("a", "b");
        assertThat(catalog.settled()).isCompleted();
    }

    @Test
    void aReReadThatTimesOutLeavesTheListAsItWas() {
        catalog.refresh();
        answerLast("a");
        catalog.refresh();
        CompletableFuture<List<McpSchema.Tool>> settled = catalog.settled();
        assertThat(settled).isNotDone();

        scheduler.advance(Duration.ofSeconds(30));
        assertThat(settled).isDone();
        assertThat(names(settled.join())).containsExactly("a");
    }

    private List<JsonNode> lists() {
        return wire.method(McpSchema.METHOD_TOOLS_LIST);
    }

    private void answerLast(String... tools) {
        List<JsonNode> lists = lists();
        String id = lists.get(lists.size() - 1).path("id").asText();
        ObjectNode result = Json.MAPPER.createObjectNode();
        ArrayNode listed = result.putArray("tools");
        for (String tool : tools) {
            listed.addObject().put("name", tool).putObject("inputSchema").put("type", "object");
        }
        window.onResponse(new JSONRPCResponse("2.0", id, result, null));
    }

    private static List<String> names(List<McpSchema.Tool> tools) {
        return tools.stream().map(McpSchema.Tool::name).toList();
    }
}
