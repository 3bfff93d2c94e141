package org.metaruntime.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.events.AgentEventProjection;
import org.metaruntime.events.EventCodec;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.EventStore;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.UnifiedEvent;

/** A merged store with a log appends every envelope it stores, as stored, beyond its own retention. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EventStoreToLogTest {

    @TempDir
    Path dir;

    @Test
    void everyStoredEnvelopeIsLoggedAfterTheAgentProjectionAndOutlivesTheBuffer() throws Exception {
        ObjectMapper json = new ObjectMapper();
        try (EventLog log = EventLogs.persistentState(dir); EventStore store = EventStore.create(8, 4, log)) {
            EventEnvelope<UnifiedEvent> failed = EventEnvelope.agent("a1", 5, "agent", "run_failed", json.readTree(
                    "{\"error_report\":{\"message\":\"LLM error\",\"reason\":{\"reason_type\":\"llm_auth_error\"}}}"));
            store.insert(failed);
            for (int i = 0; i < 100; i++) {
                store.insert(EventEnvelope.module("m" + i, 10 + i, "mod", "tick", json.createObjectNode()));
            }
            assertThat(store.size()).isLessThan(13);
            assertThat(log.flush(Duration.ofSeconds(30))).isTrue();
            List<LoggedEvent> rows = log.query(EventQuery.builder().limit(1_000).build()).events();
            assertThat(rows).hasSize(101);
            assertThat(rows.get(0).json()).isEqualTo(EventCodec.toJson(AgentEventProjection.project(failed)));
            UnifiedEvent.Agent agent = (UnifiedEvent.Agent) rows.get(0).envelope().event();
            assertThat(agent.payload().get("reason").textValue()).isEqualTo("llm_auth_error");
            assertThat(agent.payload().get("error").textValue()).isEqualTo("LLM error");
        }
    }
}
