package org.metaruntime.core.internal;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import org.metaruntime.core.InProcessModule;

/**
 * Where the runtime finds the boundary of an in-process module. Each fake class of {@code org.metaruntime.core.testing}
 * registers, when it is loaded, how to get its instances' boundaries, so that the public types never show the
 * runtime's boundary interface. Thread-safe.
 */
public final class InProcessBoundaries {

    private static final Map<Class<?>, BiFunction<InProcessModule, Executor, ModuleBoundary>> SOURCES =
            new ConcurrentHashMap<>();

    private InProcessBoundaries() {
    }

    /** Registers how the runtime gets the boundary of each instance of {@code type}. */
    public static <M extends InProcessModule> void register(Class<M> type,
                                                            BiFunction<M, Executor, ModuleBoundary> source) {
        Objects.requireNonNull(source, "source");
        SOURCES.put(type, (module, executor) -> source.apply(type.cast(module), executor));
    }

    /** Whether the runtime can serve {@code module}: it is one of the registered fakes. */
    static boolean known(InProcessModule module) {
        return SOURCES.containsKey(module.getClass());
    }

    /**
     * The boundary of {@code module}.
     *
     * @throws IllegalArgumentException when {@code module} is not one of the registered fakes
     */
    static ModuleBoundary of(InProcessModule module, Executor executor) {
        BiFunction<InProcessModule, Executor, ModuleBoundary> source = SOURCES.get(module.getClass());
        if (source == null) {
            throw new IllegalArgumentException(module.getClass().getName()
                    + " is not a fake module of org.metaruntime.core.testing");
        }
        return source.apply(module, executor);
    }
}
