package org.metaruntime.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a field or a no-argument method of a {@link MetaRuntimeTest} class (or of a superclass), static or not,
 * whose value configures the test's runtime. It is read for each test, on that test's instance. A value may be:
 *
 * <ul>
 *   <li>a {@code MetaConfig}: its modules, discovery and pre-spawn data;</li>
 *   <li>a {@code ModuleConfig}: an MCP module ({@code MetaConfig.Builder.mcp}; a remote or bare module is added
 *       as it is), discovered;</li>
 *   <li>an {@code InProcessModule} ({@code FakeMcpModule}, {@code FakeEventLineModule}), registered with
 *       {@code UnifiedRuntime.Builder.fakeModule}; when no other source configures its id, a module of its kind is
 *       configured and discovered for it. A fake held in an instance field is the very object the runtime uses, so
 *       the test reads its counters and drives it;</li>
 *   <li>a {@code Collection} or an array of these.</li>
 * </ul>
 *
 * A {@code null} value adds nothing; any other value fails the test, naming the member.
 */
@Target({ElementType.FIELD, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ModuleSource {
}
