package org.metaruntime.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.metaruntime.events.TestEvents.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MobEventProjectionTest {

    private static MobEvent event(long cursor, String kind, JsonNode payload) {
        return new MobEvent(cursor, "mob-1", 1_700_000_000_123L, kind, payload, "run-9", "step-2", "agent-a",
                Map.of("z", "1", "a", "2"), Map.of("env", "prod"));
    }

    @Test
    void theEnvelopeKeepsTheCursorTimestampAndContextAndNamesItselfAfterTheCursor() {
        MobStructuralEventEnvelope e = MobEventProjection.project(event(42, "FlowStarted", json("{\"flow\":\"f\"}")));
        assertThat(e.eventId()).isEqualTo("mob-evt-42");
        assertThat(e.cursor()).isEqualTo(42);
        assertThat(e.timestampMs()).isEqualTo(1_700_000_000_123L);
        assertThat(e.kind()).isEqualTo("flow_started");
        assertThat(e.mobId()).isEqualTo("mob-1");
        assertThat(e.runId()).isEqualTo("run-9");
        assertThat(e.stepId()).isEqualTo("step-2");
        assertThat(e.agentIdentity()).isEqualTo("agent-a");
        assertThat(e.mobLabels().keySet()).containsExactly("a", "z");
        assertThat(e.runLabels()).isEqualTo(Map.of("env", "prod"));
        assertThat(e.data()).isEqualTo(json("{\"flow\":\"f\"}"));
    }

    @Test
    void kindsBecomeSnakeCaseAndUnknownKindsPassThrough() {
        assertThat(MobEventProjection.snakeCase("MobCreated")).isEqualTo("mob_created");
        assertThat(MobEventProjection.snakeCase("MemberSpawned")).isEqualTo("member_spawned");
        assertThat(MobEventProjection.snakeCase("MembersWired")).isEqualTo("members_wired");
        assertThat(MobEventProjection.snakeCase("SupervisorEscalation")).isEqualTo("supervisor_escalation");
        assertThat(MobEventProjection.snakeCase("step_dispatched")).isEqualTo("step_dispatched");
        assertThat(MobEventProjection.snakeCase("HTTPRouteAdded")).isEqualTo("http_route_added");
        assertThat(MobEventProjection.snakeCase("Step2Done")).isEqualTo("step2_done");
        assertThat(MobEventProjection.snakeCase("quorum-Lost")).isEqualTo("quorum_lost");
        MobStructuralEventEnvelope unknown = MobEventProjection.project(event(1, "BrandNewKind", json("[1,2]")));
        assertThat(unknown.kind()).isEqualTo("brand_new_kind");
        assertThat(unknown.data()).isEqualTo(json("[1,2]"));
    }

    @Test
    void memberCreationFactsPassThroughUntouched() {
        for (String provenance : new String[] {"root", "spawn", "fork", "successor", "unproven", "legacy_unknown"}) {
            JsonNode payload = json("{\"member\":\"m1\",\"creation\":{\"creation_id\":\"tok-1\",\"provenance\":"
                    + "{\"kind\":\"" + provenance + "\",\"source_session\":\"s\"}}}");
            MobStructuralEventEnvelope e = MobEventProjection.project(event(3, "MemberSpawned", payload));
            assertThat(e.data()).isEqualTo(payload);
        }
    }

    @Test
    void aMemberSpawnedWithoutCreationIsLegacyUnknownWithANullIdAndNoFabricatedToken() {
        JsonNode payload = json("{\"member\":\"m1\",\"fork_source\":{\"session\":\"s0\"}}");
        String before = payload.toString();
        MobStructuralEventEnvelope e = MobEventProjection.project(event(3, "member_spawned", payload));
        assertThat(e.data().get("creation")).isEqualTo(
                json("{\"creation_id\":null,\"provenance\":{\"kind\":\"legacy_unknown\"}}"));
        assertThat(e.data().get("member").textValue()).isEqualTo("m1");
        assertThat(e.data().get("fork_source")).isEqualTo(json("{\"session\":\"s0\"}"));
        assertThat(payload.toString()).as("input not mutated").isEqualTo(before);
        JsonNode nullCreation = json("{\"member\":\"m2\",\"creation\":null}");
        assertThat(MobEventProjection.project(event(4, "MemberSpawned", nullCreation)).data().get("creation")
                .get("creation_id").isNull()).isTrue();
        JsonNode other = json("{\"member\":\"m1\"}");
        assertThat(MobEventProjection.project(event(5, "MemberRetired", other)).data()).isEqualTo(other);
    }

    @Test
    void theJsonFormRoundTrips() {
        MobStructuralEventEnvelope e = MobEventProjection.project(event(7, "MemberSpawned",
                json("{\"name\":\"ü 🎉\",\"n\":2}")));
        String text = MobEventProjection.toJson(e);
        assertThat(text).startsWith("{\"event_id\":\"mob-evt-7\",\"cursor\":7,\"mob_id\":\"mob-1\"");
        MobStructuralEventEnvelope back = MobEventProjection.fromJson(text);
        assertThat(back).isEqualTo(e);
        assertThat(MobEventProjection.toJson(back)).isEqualTo(text);
        assertThatThrownBy(() -> MobEventProjection.fromJson("{\"cursor\":1}"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void valuesAreValidated() {
        assertThatThrownBy(() -> event(-1, "K", json("{}"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> event(1, "", json("{}"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MobEventQuery(null, null, null, -2, 10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MobEventQuery(null, null, null, -1, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theInMemoryMetadataStoreReplacesValues() {
        PersistentMetadataStore store = PersistentMetadataStore.inMemory();
        assertThat(store.get("k")).isEmpty();
        store.put("k", "1");
        store.put("k", "2");
        assertThat(store.get("k")).contains("2");
    }
}
