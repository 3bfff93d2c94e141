package org.metaruntime.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.metaruntime.events.TestEvents.errorOf;
import static org.metaruntime.events.TestEvents.json;

import com.fasterxml.jackson.databind.node.NullNode;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EventNormalizerTest {

    private static final String HEAD = "\"event_id\":\"e1\",\"source\":\"module\",\"timestamp_ms\":42";
    private static final String AGENT_HEAD = "\"event_id\":\"e1\",\"source\":\"agent\",\"timestamp_ms\":42";

    @Nested
    class EnvelopeForm {

        @Test
        void acceptsTheModuleEnvelope() {
            EventEnvelope<UnifiedEvent> e = EventNormalizer.normalize("{" + HEAD
                    + ",\"event\":{\"kind\":\"module\",\"module\":\"m\",\"event_type\":\"ready\",\"payload\":{}}}");
            assertThat(e).isEqualTo(EventEnvelope.module("e1", 42, "m", "ready", TestEvents.object()));
        }

        @Test
        void acceptsTheAgentEnvelopeWithAndWithoutPayload() {
            EventEnvelope<UnifiedEvent> with = EventNormalizer.normalize("{" + AGENT_HEAD
                    + ",\"event\":{\"kind\":\"agent\",\"agent_id\":\"a\",\"event_type\":\"run_started\",\"payload\":{\"k\":[1]}}}");
            assertThat(with).isEqualTo(EventEnvelope.agent("e1", 42, "a", "run_started", json("{\"k\":[1]}")));
            EventEnvelope<UnifiedEvent> without = EventNormalizer.normalize("{" + AGENT_HEAD
                    + ",\"event\":{\"kind\":\"agent\",\"agent_id\":\"a\",\"event_type\":\"run_started\"}}");
            assertThat(((UnifiedEvent.Agent) without.event()).payload()).isNull();
        }

        @Test
        void ignoresUnknownFieldsAndTakesTheEnvelopeFormFirst() {
            // Has both forms' fields: the envelope wins, the flat "module" key is an ignored extra.
            EventEnvelope<UnifiedEvent> e = EventNormalizer.normalize("{" + AGENT_HEAD + ",\"module\":\"flat\",\"zzz\":1"
                    + ",\"event\":{\"kind\":\"agent\",\"agent_id\":\"a\",\"event_type\":\"t\"}}");
            assertThat(e.event()).isEqualTo(new UnifiedEvent.Agent("a", "t", null));
        }

        @Test
        void anInvalidEnvelopeFallsBackToTheFlatForm() {
            // Unknown kind: not the envelope form; the flat form then wants agent_id.
            assertThat(errorOf("{" + HEAD + ",\"event\":{\"kind\":\"robot\"}}"))
                    .isEqualTo(new NormalizationError.MissingField("agent_id"));
            // Module envelope without payload: not the envelope form; the flat agent form applies.
            EventEnvelope<UnifiedEvent> flat = EventNormalizer.normalize("{" + AGENT_HEAD
                    + ",\"agent_id\":\"a\",\"event_type\":\"t\",\"event\":{\"kind\":\"module\",\"module\":\"m\",\"event_type\":\"t\"}}");
            assertThat(flat.event()).isEqualTo(new UnifiedEvent.Agent("a", "t", null));
        }

        @Test
        void checksTheSourceOfTheEnvelopeForm() {
            assertThat(errorOf("{\"event_id\":\"e\",\"source\":\"Module\",\"timestamp_ms\":1"
                    + ",\"event\":{\"kind\":\"module\",\"module\":\"m\",\"event_type\":\"t\",\"payload\":null}}"))
                    .isEqualTo(new NormalizationError.SourceMismatch("module", "Module"));
            assertThat(errorOf("{\"event_id\":\"e\",\"source\":\"module\",\"timestamp_ms\":1"
                    + ",\"event\":{\"kind\":\"agent\",\"agent_id\":\"a\",\"event_type\":\"t\"}}"))
                    .isEqualTo(new NormalizationError.SourceMismatch("agent", "module"));
        }
    }

    @Nested
    class FlatForm {

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "nope", "{", "{\"a\":1}}", "{\"a\":1} x", "{'a':1}", "{\"a\":NaN}",
                "{\"a\":01}", "[1,]", "\"unterminated", "{\"a\":1,}"})
        void notJsonIsInvalidJson(String line) {
            assertThat(errorOf(line)).isEqualTo(new NormalizationError.InvalidJson());
        }

        @ParameterizedTest
        @ValueSource(strings = {"[]", "[{\"event_id\":\"e\"}]", "1", "\"s\"", "null", "true", " 3.5 "})
        void jsonThatIsNotAnObjectIsInvalidSchema(String line) {
            assertThat(errorOf(line)).isEqualTo(new NormalizationError.InvalidSchema());
        }

        @Test
        void requiresEventIdThenSourceThenTimestampInThatOrder() {
            assertThat(errorOf("{}")).isEqualTo(new NormalizationError.MissingField("event_id"));
            assertThat(errorOf("{\"timestamp_ms\":1,\"source\":\"module\"}"))
                    .isEqualTo(new NormalizationError.MissingField("event_id"));
            assertThat(errorOf("{\"event_id\":\"e\",\"timestamp_ms\":1}"))
                    .isEqualTo(new NormalizationError.MissingField("source"));
            assertThat(errorOf("{\"event_id\":\"e\",\"source\":\"module\"}"))
                    .isEqualTo(new NormalizationError.MissingField("timestamp_ms"));
            assertThat(errorOf("{\"event_id\":1,\"source\":2}"))
                    .isEqualTo(new NormalizationError.InvalidFieldType("event_id"));
            assertThat(errorOf("{\"event_id\":\"e\",\"source\":[]}"))
                    .isEqualTo(new NormalizationError.InvalidFieldType("source"));
        }

        @Test
        void aRequiredKeyWithJsonNullIsTheWrongType() {
            assertThat(errorOf("{\"event_id\":null}")).isEqualTo(new NormalizationError.InvalidFieldType("event_id"));
            assertThat(errorOf("{\"event_id\":\"e\",\"source\":null}"))
                    .isEqualTo(new NormalizationError.InvalidFieldType("source"));
            assertThat(errorOf("{" + HEAD.replace("42", "null") + "}"))
                    .isEqualTo(new NormalizationError.InvalidFieldType("timestamp_ms"));
            assertThat(errorOf("{" + HEAD + ",\"module\":\"m\",\"event_type\":null,\"payload\":1}"))
                    .isEqualTo(new NormalizationError.InvalidFieldType("event_type"));
            assertThat(errorOf("{" + AGENT_HEAD + ",\"agent_id\":null}"))
                    .isEqualTo(new NormalizationError.InvalidFieldType("agent_id"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"-1", "1.5", "42.0", "1e3", "\"42\"", "9223372036854775808",
                "18446744073709551615", "99999999999999999999999999999", "-9223372036854775808", "true", "{}", "[]"})
        void timestampsOutsideZeroToLongMaxOrNotIntegersAreInvalidFieldType(String value) {
            assertThat(errorOf("{\"event_id\":\"e\",\"source\":\"module\",\"timestamp_ms\":" + value
                    + ",\"module\":\"m\",\"event_type\":\"t\",\"payload\":1}"))
                    .isEqualTo(new NormalizationError.InvalidFieldType("timestamp_ms"));
        }

        @Test
        void timestampBoundsAreAccepted() {
            assertThat(EventNormalizer.normalize("{\"event_id\":\"e\",\"source\":\"module\",\"timestamp_ms\":0"
                    + ",\"module\":\"m\",\"event_type\":\"t\",\"payload\":1}").timestampMs()).isZero();
            assertThat(EventNormalizer.normalize("{\"event_id\":\"e\",\"source\":\"module\","
                    + "\"timestamp_ms\":9223372036854775807,\"module\":\"m\",\"event_type\":\"t\",\"payload\":1}")
                    .timestampMs()).isEqualTo(Long.MAX_VALUE);
        }

        @Test
        void aModuleKeyMakesAModuleEventWhateverItsValue() {
            assertThat(errorOf("{" + HEAD + ",\"module\":null,\"agent_id\":\"a\",\"event_type\":\"t\"}"))
                    .isEqualTo(new NormalizationError.InvalidFieldType("module"));
            assertThat(errorOf("{" + HEAD + ",\"module\":7}"))
                    .isEqualTo(new NormalizationError.InvalidFieldType("module"));
        }

        @Test
        void moduleEventsNeedEventTypeThenPayload() {
            assertThat(errorOf("{" + HEAD + ",\"module\":\"m\",\"payload\":1}"))
                    .isEqualTo(new NormalizationError.MissingField("event_type"));
            assertThat(errorOf("{" + HEAD + ",\"module\":\"m\",\"event_type\":5}"))
                    .isEqualTo(new NormalizationError.InvalidFieldType("event_type"));
            assertThat(errorOf("{" + HEAD + ",\"module\":\"m\",\"event_type\":\"t\"}"))
                    .isEqualTo(new NormalizationError.MissingField("payload"));
        }

        @Test
        void aModulePayloadMayBeAnyJsonIncludingNull() {
            EventEnvelope<UnifiedEvent> e = EventNormalizer.normalize(
                    "{" + HEAD + ",\"module\":\"m\",\"event_type\":\"t\",\"payload\":null}");
            assertThat(e).isEqualTo(EventEnvelope.module("e1", 42, "m", "t", NullNode.getInstance()));
            EventEnvelope<UnifiedEvent> array = EventNormalizer.normalize(
                    "{" + HEAD + ",\"module\":\"m\",\"event_type\":\"t\",\"payload\":[1,\"x\"]}");
            assertThat(((UnifiedEvent.Module) array.event()).event().payload()).isEqualTo(json("[1,\"x\"]"));
        }

        @Test
        void moduleWinsOverAgentId() {
            EventEnvelope<UnifiedEvent> e = EventNormalizer.normalize(
                    "{" + HEAD + ",\"agent_id\":\"a\",\"module\":\"m\",\"event_type\":\"t\",\"payload\":{}}");
            assertThat(e.event()).isInstanceOf(UnifiedEvent.Module.class);
        }

        @Test
        void agentEventsNeedAgentIdThenEventTypeAndAnOptionalPayload() {
            assertThat(errorOf("{" + AGENT_HEAD + ",\"event_type\":\"t\"}"))
                    .isEqualTo(new NormalizationError.MissingField("agent_id"));
            assertThat(errorOf("{" + AGENT_HEAD + ",\"agent_id\":[\"a\"]}"))
                    .isEqualTo(new NormalizationError.InvalidFieldType("agent_id"));
            assertThat(errorOf("{" + AGENT_HEAD + ",\"agent_id\":\"a\"}"))
                    .isEqualTo(new NormalizationError.MissingField("event_type"));
            assertThat(EventNormalizer.normalize("{" + AGENT_HEAD + ",\"agent_id\":\"a\",\"event_type\":\"t\"}"))
                    .isEqualTo(EventEnvelope.agent("e1", 42, "a", "t", null));
            assertThat(EventNormalizer.normalize(
                    "{" + AGENT_HEAD + ",\"agent_id\":\"a\",\"event_type\":\"t\",\"payload\":null}"))
                    .isEqualTo(EventEnvelope.agent("e1", 42, "a", "t", null));
            assertThat(EventNormalizer.normalize(
                    "{" + AGENT_HEAD + ",\"agent_id\":\"a\",\"event_type\":\"t\",\"payload\":\"p\"}"))
                    .isEqualTo(EventEnvelope.agent("e1", 42, "a", "t", json("\"p\"")));
        }

        @Test
        void topLevelFieldsBecomeTheEnvelopeFields() {
            EventEnvelope<UnifiedEvent> e = EventNormalizer.normalize("{\"event_id\":\"id-9\",\"source\":\"agent\","
                    + "\"timestamp_ms\":7,\"agent_id\":\"a\",\"event_type\":\"t\"}");
            assertThat(e.eventId()).isEqualTo("id-9");
            assertThat(e.source()).isEqualTo("agent");
            assertThat(e.timestampMs()).isEqualTo(7);
        }

        @Test
        void checksTheSourceExactlyAndCaseSensitively() {
            assertThat(errorOf("{" + HEAD + ",\"agent_id\":\"a\",\"event_type\":\"t\"}"))
                    .isEqualTo(new NormalizationError.SourceMismatch("agent", "module"));
            assertThat(errorOf("{" + AGENT_HEAD + ",\"module\":\"m\",\"event_type\":\"t\",\"payload\":1}"))
                    .isEqualTo(new NormalizationError.SourceMismatch("module", "agent"));
            assertThat(errorOf("{\"event_id\":\"e\",\"source\":\"AGENT\",\"timestamp_ms\":1,"
                    + "\"agent_id\":\"a\",\"event_type\":\"t\"}"))
                    .isEqualTo(new NormalizationError.SourceMismatch("agent", "AGENT"));
            assertThat(errorOf("{\"event_id\":\"e\",\"source\":\"module \",\"timestamp_ms\":1,"
                    + "\"module\":\"m\",\"event_type\":\"t\",\"payload\":1}"))
                    .isEqualTo(new NormalizationError.SourceMismatch("module", "module "));
        }

        @Test
        void doesNotMintIdsOrRewriteTimestamps() {
            EventEnvelope<UnifiedEvent> e = EventNormalizer.normalize("{\"event_id\":\"\",\"source\":\"module\","
                    + "\"timestamp_ms\":0,\"module\":\"m\",\"event_type\":\"t\",\"payload\":1}");
            assertThat(e.eventId()).isEmpty();
            assertThat(e.timestampMs()).isZero();
        }
    }

    @Nested
    class HostileInput {

        @Test
        void deepNestingIsRejectedWithoutOverflowingTheStack() {
            String deep = "[".repeat(100_000) + "]".repeat(100_000);
            assertThat(errorOf(deep)).isEqualTo(new NormalizationError.InvalidJson());
            String deepPayload = "{" + HEAD + ",\"module\":\"m\",\"event_type\":\"t\",\"payload\":"
                    + "{\"a\":".repeat(50_000) + "1" + "}".repeat(50_000) + "}";
            assertThat(errorOf(deepPayload)).isEqualTo(new NormalizationError.InvalidJson());
        }

        @Test
        void hugeNumbersAreHandled() {
            String line = "{" + HEAD + ",\"module\":\"m\",\"event_type\":\"t\",\"payload\":[1e999999999,"
                    + "1".repeat(900) + ",-1e-999999999]}";
            EventEnvelope<UnifiedEvent> e = EventNormalizer.normalize(line);
            assertThat(EventCodec.fromJson(EventCodec.toJson(e))).isEqualTo(e);
            assertThat(errorOf("{" + HEAD + ",\"module\":\"m\",\"event_type\":\"t\",\"payload\":"
                    + "1".repeat(5000) + "}")).isEqualTo(new NormalizationError.InvalidJson());
            assertThat(errorOf("{\"event_id\":\"e\",\"source\":\"module\",\"timestamp_ms\":1e99999999999,"
                    + "\"module\":\"m\",\"event_type\":\"t\",\"payload\":1}")).isNotNull();
        }

        @Test
        void loneSurrogatesAndControlCharactersAreJustText() {
            String raw = "{\"event_id\":\"\uD800x\",\"source\":\"agent\",\"timestamp_ms\":1,\"agent_id\":\"\uDFFF\","
                    + "\"event_type\":\"t\",\"payload\":\"\\ud800\\u0000\"}";
            EventEnvelope<UnifiedEvent> e = EventNormalizer.normalize(raw);
            assertThat(e.eventId()).isEqualTo("\uD800x");
            assertThat(EventCodec.fromJson(EventCodec.toJson(e))).isEqualTo(e);
            assertThat(errorOf("\u0000")).isEqualTo(new NormalizationError.InvalidJson());
            assertThat(errorOf("{\"event_id\":\"a\u0001b\"}")).isEqualTo(new NormalizationError.InvalidJson());
        }

        @Test
        void rejectsNullWithTheArgumentName() {
            assertThatThrownBy(() -> EventNormalizer.normalize(null))
                    .isInstanceOf(NullPointerException.class).hasMessage("line");
        }
    }
}
