package org.metaruntime.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;

/**
 * A modern session's {@code subscriptions/listen} stream is sent again after a backoff when it ends, and the backoff
 * starts over after a stream that stayed open longer than the longest backoff: both the wait and the time the stream
 * stayed open are the window's scheduler's, so a manual scheduler drives them.
 */
class ListenStreamTest {

    private final ManualScheduler scheduler = new ManualScheduler();
    private final RecordingWire wire = new RecordingWire();
    private final CallWindow window = new CallWindow("m", 4, 16, scheduler, wire);

    @Test
    void anEndedStreamIsSentAgainAfterABackoffThatDoublesAndStartsOverAfterALongStream() {
        ListenStream.open(window, Json.MAPPER.createObjectNode().set("capabilities",
                Json.MAPPER.createObjectNode().set("tools", Json.MAPPER.createObjectNode().put("listChanged", true))));
        assertThat(listens()).hasSize(1);
        assertThat(listens().get(0).at("/params/notifications/toolsListChanged").asBoolean()).isTrue();
        assertThat(scheduler.pendingCount()).as("an open stream arms no timer").isZero();

        endLast();
        assertThat(scheduler.pendingDelay()).isEqualTo(Duration.ofSeconds(1));
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(listens()).hasSize(2);

        endLast();
        assertThat(scheduler.pendingDelay()).isEqualTo(Duration.ofSeconds(2));
        scheduler.advance(Duration.ofSeconds(2));
        assertThat(listens()).hasSize(3);

        scheduler.advance(Duration.ofSeconds(30)); // the third stream stays open just the longest backoff
        endLast();
        assertThat(scheduler.pendingDelay()).isEqualTo(Duration.ofSeconds(4));
        scheduler.advance(Duration.ofSeconds(4));
        assertThat(listens()).hasSize(4);

        scheduler.advance(Duration.ofSeconds(30).plusNanos(1)); // the fourth stays open longer: the backoff starts over
        endLast();
        assertThat(scheduler.pendingDelay()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aWindowThatEndedOpensNoStreamAgain() {
        ListenStream.open(window, Json.MAPPER.createObjectNode().set("capabilities",
                Json.MAPPER.createObjectNode().set("prompts", Json.MAPPER.createObjectNode().put("listChanged", true))));
        endLast();
        window.terminate(Termination.of("closed"));
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(listens()).hasSize(1);
    }

    private List<JsonNode> listens() {
        return wire.method(ListenStream.METHOD);
    }

    private void endLast() {
        List<JsonNode> listens = listens();
        String id = listens.get(listens.size() - 1).path("id").asText();
        window.onResponse(new JSONRPCResponse("2.0", id, Json.MAPPER.createObjectNode(), null));
    }
}
