package org.metaruntime.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.metaruntime.events.TestEvents.json;

import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EventCodecTest {

    @Test
    void writesTheModuleFormWithKeysInSpecOrder() {
        EventEnvelope<UnifiedEvent> e = EventEnvelope.module("e1", 42, "m", "ready", TestEvents.object());
        assertThat(EventCodec.toJson(e)).isEqualTo(
                "{\"event_id\":\"e1\",\"source\":\"module\",\"timestamp_ms\":42,"
                        + "\"event\":{\"kind\":\"module\",\"module\":\"m\",\"event_type\":\"ready\",\"payload\":{}}}");
    }

    @Test
    void writesTheAgentFormWithItsPayload() {
        EventEnvelope<UnifiedEvent> e = EventEnvelope.agent("e2", 43, "a", "run_started", json("{\"x\":1}"));
        assertThat(EventCodec.toJson(e)).isEqualTo(
                "{\"event_id\":\"e2\",\"source\":\"agent\",\"timestamp_ms\":43,"
                        + "\"event\":{\"kind\":\"agent\",\"agent_id\":\"a\",\"event_type\":\"run_started\","
                        + "\"payload\":{\"x\":1}}}");
    }

    @Test
    void omitsAnAbsentAgentPayloadAndTreatsJsonNullAsAbsent() {
        String absent = EventCodec.toJson(EventEnvelope.agent("e", 1, "a", "t", null));
        String jsonNull = EventCodec.toJson(EventEnvelope.agent("e", 1, "a", "t", NullNode.getInstance()));
        assertThat(absent).doesNotContain("payload").isEqualTo(jsonNull);
        assertThat(EventCodec.fromJson(absent).event()).isEqualTo(new UnifiedEvent.Agent("a", "t", null));
    }

    @Test
    void neverDropsAPresentAgentPayloadEvenWhenEmpty() {
        EventEnvelope<UnifiedEvent> e = EventEnvelope.agent("e", 1, "a", "t", TestEvents.object());
        String line = EventCodec.toJson(e);
        assertThat(line).contains("\"payload\":{}");
        assertThat(((UnifiedEvent.Agent) EventCodec.fromJson(line).event()).payload()).isEqualTo(TestEvents.object());
    }

    @Test
    void writesAModulePayloadOfJsonNullAndNeverHoldsAJavaNull() {
        ModuleEvent event = new ModuleEvent("m", "t", null);
        assertThat(event.payload()).isSameAs(NullNode.getInstance());
        String line = EventCodec.toJson(EventEnvelope.module("e", 1, "m", "t", null));
        assertThat(line).endsWith("\"payload\":null}}");
        UnifiedEvent.Module back = (UnifiedEvent.Module) EventCodec.fromJson(line).event();
        assertThat(back.event().payload()).isSameAs(NullNode.getInstance());
    }

    @Test
    void roundTripIsByteIdenticalWithCjkAndEmojiUnescaped() {
        ObjectNode payload = TestEvents.object();
        payload.put("text", "日本語のテキスト 🎉👩‍💻 \uD83D\uDE00");
        payload.put("ctrl", "tab\tquote\" backslash\\ nl\n \u0001");
        payload.putArray("nested").add(1).add(json("{\"深い\":[null,true,false,-5]}"));
        EventEnvelope<UnifiedEvent> e = EventEnvelope.agent("évt-①", 1_700_000_000_000L, "агент", "text_delta", payload);
        String first = EventCodec.toJson(e);
        assertThat(first).contains("日本語のテキスト 🎉👩‍💻").contains("агент").contains("\"深い\"")
                .doesNotContain("\\u65e5").doesNotContain("\\ud83c");
        EventEnvelope<UnifiedEvent> parsed = EventCodec.fromJson(first);
        assertThat(parsed).isEqualTo(e);
        assertThat(EventCodec.toJson(parsed)).isEqualTo(first);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.0", "1.50", "1e400", "-1E-400", "0.1", "123456789012345678901234567890",
            "-9223372036854775808", "18446744073709551616", "0.000", "1E+5", "41e00", "-0e0", "3.141592653589793238462643383279"})
    void numbersSurviveTheRoundTripExactly(String number) {
        String line = "{\"event_id\":\"e\",\"source\":\"module\",\"timestamp_ms\":0,"
                + "\"event\":{\"kind\":\"module\",\"module\":\"m\",\"event_type\":\"t\",\"payload\":[" + number + "]}}";
        String first = EventCodec.toJson(EventCodec.fromJson(line));
        String second = EventCodec.toJson(EventCodec.fromJson(first));
        assertThat(second).isEqualTo(first);
        assertThat(EventCodec.fromJson(first)).isEqualTo(EventCodec.fromJson(line));
    }

    @Test
    void javaDoublesAndFloatsAreWrittenInAFormThatReparsesToTheSameText() {
        ObjectNode payload = TestEvents.object();
        payload.set("d", DoubleNode.valueOf(1.0E10));
        payload.set("small", DoubleNode.valueOf(1.5e-7));
        payload.set("f", FloatNode.valueOf(0.1f));
        payload.set("nan", DoubleNode.valueOf(Double.NaN));
        String first = EventCodec.toJson(EventEnvelope.module("e", 1, "m", "t", payload));
        assertThat(first).contains("\"nan\":null").contains("\"f\":0.1");
        assertThat(EventCodec.toJson(EventCodec.fromJson(first))).isEqualTo(first);
    }

    @Test
    void ignoresUnknownFields() {
        String line = "{\"event_id\":\"e\",\"extra\":[1],\"source\":\"module\",\"timestamp_ms\":5,"
                + "\"event\":{\"kind\":\"module\",\"module\":\"m\",\"event_type\":\"t\",\"payload\":1,\"x\":2}}";
        assertThat(EventCodec.fromJson(line)).isEqualTo(EventEnvelope.module("e", 5, "m", "t", json("1")));
    }

    @Test
    void fromJsonRejectsTheFlatFormAndBadEnvelopesWithTypedErrors() {
        String flat = "{\"event_id\":\"e\",\"source\":\"module\",\"timestamp_ms\":5,\"module\":\"m\","
                + "\"event_type\":\"t\",\"payload\":1}";
        assertThatThrownBy(() -> EventCodec.fromJson(flat)).isInstanceOf(NormalizationException.class)
                .extracting(e -> ((NormalizationException) e).error())
                .isEqualTo(new NormalizationError.MissingField("event"));
        String mismatch = "{\"event_id\":\"e\",\"source\":\"agent\",\"timestamp_ms\":5,"
                + "\"event\":{\"kind\":\"module\",\"module\":\"m\",\"event_type\":\"t\",\"payload\":1}}";
        assertThatThrownBy(() -> EventCodec.fromJson(mismatch))
                .extracting(e -> ((NormalizationException) e).error())
                .isEqualTo(new NormalizationError.SourceMismatch("module", "agent"));
        assertThatThrownBy(() -> EventCodec.fromJson("nope"))
                .extracting(e -> ((NormalizationException) e).error())
                .isEqualTo(new NormalizationError.InvalidJson());
    }

    @Test
    void envelopesRejectASourceThatDoesNotMatchTheVariantAndNegativeTimestamps() {
        UnifiedEvent agent = new UnifiedEvent.Agent("a", "t", null);
        assertThatThrownBy(() -> new EventEnvelope<>("e", "module", 1, agent))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"agent\"");
        assertThatThrownBy(() -> new EventEnvelope<>("e", "agent", -1, agent))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EventEnvelope.module(null, 1, "m", "t", null))
                .isInstanceOf(NullPointerException.class).hasMessage("eventId");
        assertThatThrownBy(() -> EventCodec.toJson((EventEnvelope<UnifiedEvent>) null))
                .isInstanceOf(NullPointerException.class).hasMessage("envelope");
    }

    @Test
    void writesABareEvent() {
        assertThat(EventCodec.toJson(new UnifiedEvent.Module("meta.workgraph", "workgraph.fact", json("{}"))))
                .isEqualTo("{\"kind\":\"module\",\"module\":\"meta.workgraph\",\"event_type\":\"workgraph.fact\",\"payload\":{}}");
    }
}
