package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** No public signature of meta-mcp's API names a type of its {@code internal} package or of Reactor. */
class ApiBoundaryTest {

    private static final List<Class<?>> API = List.of(McpConnection.class, McpPerCall.class, McpProbe.class,
            McpProbeResult.class, McpToolCall.class, McpCallOptions.class, McpCallOptions.Builder.class,
            McpClientOptions.class, McpClientOptions.Builder.class, McpClientRequestHandler.class, McpProgress.class,
            McpRoot.class, McpSessionMode.class, McpSubscription.class, McpBoundaryError.class,
            McpBoundaryException.class);

    @Test
    void publicSignaturesNameNoInternalOrReactorType() {
        List<Class<?>> classes = new ArrayList<>(API);
        classes.addAll(List.of(McpBoundaryError.class.getPermittedSubclasses()));
        List<String> leaks = new ArrayList<>();
        for (Class<?> api : classes) {
            for (Method m : api.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers())) {
                    List<Type> types = new ArrayList<>(List.of(m.getGenericParameterTypes()));
                    types.add(m.getGenericReturnType());
                    check(api.getSimpleName() + "." + m.getName(), types, leaks);
                }
            }
            for (Constructor<?> c : api.getDeclaredConstructors()) {
                if (Modifier.isPublic(c.getModifiers())) {
                    check(api.getSimpleName() + ".<init>", List.of(c.getGenericParameterTypes()), leaks);
                }
            }
            for (Field f : api.getDeclaredFields()) {
                if (Modifier.isPublic(f.getModifiers())) {
                    check(api.getSimpleName() + "." + f.getName(), List.of(f.getGenericType()), leaks);
                }
            }
        }
        assertThat(classes).hasSizeGreaterThan(API.size());
        assertThat(leaks).isEmpty();
    }

    private static void check(String where, List<Type> types, List<String> leaks) {
        for (Type t : types) {
            String name = t.getTypeName();
            if (name.contains(".internal.") || name.startsWith("reactor.") || name.contains("<reactor.")) {
                leaks.add(where + " names " + name);
            }
        }
    }
}
