package org.metaruntime.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Fuzzes the normaliser. In a plain test run it replays the committed corpus in
 * {@code src/test/resources/org/metaruntime/events/EventNormalizerFuzzTestInputs/normalize/} (each file is
 * one line, UTF-8); with {@code JAZZER_FUZZ=1} it fuzzes.
 */
class EventNormalizerFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void normalize(byte[] input) {
        String line = new String(input, StandardCharsets.UTF_8);
        check(line);
        // The same bytes read as UTF-16 reach lone surrogates and other raw chars UTF-8 cannot carry.
        check(new String(input, StandardCharsets.UTF_16BE));
    }

    private static void check(String line) {
        EventEnvelope<UnifiedEvent> envelope;
        try {
            envelope = EventNormalizer.normalize(line);
        } catch (NormalizationException e) {
            assertThat(e.error()).isNotNull();
            return;
        }
        String json = EventCodec.toJson(envelope);
        EventEnvelope<UnifiedEvent> back = EventCodec.fromJson(json);
        assertThat(back).isEqualTo(envelope);
        assertThat(EventCodec.toJson(back)).isEqualTo(json);
        assertThat(EventNormalizer.normalize(json)).isEqualTo(envelope);
    }
}
