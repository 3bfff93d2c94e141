package org.metaruntime.events;

import java.util.Objects;
import org.metaruntime.events.internal.EnvelopeReader;

/**
 * Turns one line a module printed into an envelope, or a typed {@link NormalizationError}.
 *
 * <ol>
 *   <li><b>Envelope form</b> first: the JSON form of {@link EventCodec} (extra fields ignored).</li>
 *   <li>Otherwise the <b>flat form</b>: not JSON → {@code InvalidJson}; not an object →
 *       {@code InvalidSchema}; then, in this order, {@code event_id} (string), {@code source} (string),
 *       {@code timestamp_ms} (integer 0 ≤ n ≤ 2<sup>63</sup>−1): absent → {@code MissingField}, wrong type
 *       (JSON null, negative, fractional, too large, string, ...) → {@code InvalidFieldType}. With a
 *       {@code module} key (whatever its value): {@code module} (string), {@code event_type} (string),
 *       {@code payload} required (any JSON, {@code null} too). Otherwise an agent event: {@code agent_id}
 *       (string), {@code event_type} (string), {@code payload} optional.</li>
 *   <li><b>Source check</b> for both forms: exactly {@code agent} / {@code module} →
 *       otherwise {@code SourceMismatch(expected, got)}.</li>
 * </ol>
 *
 * <p>It does not mint ids, enforce uniqueness, de-duplicate or rewrite timestamps. Whatever the input
 * (deep nesting, huge numbers, lone surrogates) it returns an envelope or throws
 * {@link NormalizationException}, nothing else. Stateless and thread-safe.
 *
 * <pre>{@code
 * EventEnvelope<UnifiedEvent> e = EventNormalizer.normalize(
 *         "{\"event_id\":\"e1\",\"source\":\"module\",\"timestamp_ms\":1,\"module\":\"m\",\"event_type\":\"ready\",\"payload\":{}}");
 * }</pre>
 */
public final class EventNormalizer {

    private EventNormalizer() {
    }

    /**
     * Normalises one line.
     *
     * @throws NormalizationException with the first rule the line breaks
     */
    public static EventEnvelope<UnifiedEvent> normalize(String line) {
        Objects.requireNonNull(line, "line");
        return EnvelopeReader.normalize(line);
    }
}
