package org.metaruntime.gateway.internal.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DispatcherTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final CompletableFuture<JsonNode> slow = new CompletableFuture<>();
    private final List<ObjectNode> sent = new CopyOnWriteArrayList<>();
    private final ClientSession session = new ClientSession("s1", sent::add);
    private final Dispatcher dispatcher = Dispatcher.builder()
            .nanoClock(now::get)
            .inline("slow", request -> slow)
            .build();

    private record Answered(String method, long nanos, Integer errorCode) {
    }

    @Test
    void eachAnswerIsTimedOnTheDispatchersClock() {
        List<Answered> answered = new CopyOnWriteArrayList<>();
        dispatcher.observe((method, params, nanos, errorCode, result) -> answered.add(new Answered(method, nanos, errorCode)));

        dispatcher.onMessage(session, JsonRpc.request(JsonRpc.NODES.numberNode(1), "slow", null));
        now.addAndGet(Duration.ofMillis(7).toNanos());
        assertThat(answered).isEmpty();
        slow.complete(JsonRpc.NODES.objectNode().put("ok", true));

        assertThat(answered).containsExactly(new Answered("slow", Duration.ofMillis(7).toNanos(), null));
        assertThat(sent).singleElement().satisfies(m -> assertThat(m.at("/result/ok").asBoolean()).isTrue());
    }
}
