package org.metaruntime.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** No public signature of the API names a type of the {@code internal} package. */
class ApiBoundaryTest {

    @Test
    void publicSignaturesNameNoInternalType() {
        List<String> leaks = new ArrayList<>();
        for (Class<?> api : List.of(EventLogs.class, MetadataStores.class, EventLogOptions.class,
                EventLogOptions.Builder.class)) {
            for (Method m : api.getDeclaredMethods()) {
                if (!Modifier.isPublic(m.getModifiers())) {
                    continue;
                }
                List<Type> types = new ArrayList<>(List.of(m.getGenericParameterTypes()));
                types.add(m.getGenericReturnType());
                for (Type t : types) {
                    if (t.getTypeName().contains(".internal.")) {
                        leaks.add(api.getSimpleName() + "." + m.getName() + " names " + t.getTypeName());
                    }
                }
            }
        }
        assertThat(leaks).isEmpty();
    }
}
