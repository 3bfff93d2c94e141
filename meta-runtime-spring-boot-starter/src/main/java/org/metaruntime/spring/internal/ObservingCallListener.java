package org.metaruntime.spring.internal;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import org.metaruntime.core.ModuleCallListener;

/**
 * A Micrometer {@link Observation} named {@value #NAME} per call, with the low-cardinality keys {@code module},
 * {@code tool} and {@code outcome} ({@code success}, {@code tool_error} or {@code error}; an error is recorded on the
 * observation). The registry is looked up at the first call: without one, calls are not observed. Thread-safe.
 */
public final class ObservingCallListener implements ModuleCallListener {

    /** The observation's name. */
    public static final String NAME = "meta.runtime.call";

    private static final ModuleCallListener.Ended NOTHING = (outcome, error) -> { };

    private final Supplier<ObservationRegistry> registries;
    private volatile ObservationRegistry registry;

    /** @param registries the context's registry, or null when it has none */
    public ObservingCallListener(Supplier<ObservationRegistry> registries) {
        this.registries = Objects.requireNonNull(registries, "registries");
    }

    private ObservationRegistry registry() {
        ObservationRegistry current = registry;
        if (current == null) {
            current = registries.get();
            if (current == null) {
                current = ObservationRegistry.NOOP;
            }
            registry = current;
        }
        return current;
    }

    @Override
    public Ended callStarted(String moduleId, String tool) {
        ObservationRegistry observations = registry();
        if (observations.isNoop()) {
            return NOTHING;
        }
        Observation observation = Observation.createNotStarted(NAME, observations)
                .lowCardinalityKeyValue("module", moduleId)
                .lowCardinalityKeyValue("tool", tool)
                .start();
        return (outcome, error) -> {
            observation.lowCardinalityKeyValue("outcome", outcome.name().toLowerCase(Locale.ROOT));
            if (outcome == Outcome.ERROR && error != null) {
                observation.error(error);
            }
            observation.stop();
        };
    }
}
