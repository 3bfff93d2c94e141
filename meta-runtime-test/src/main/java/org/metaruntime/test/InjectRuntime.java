package org.metaruntime.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a non-static field of type {@code UnifiedRuntime} of a {@link MetaRuntimeTest} class (or of a superclass):
 * the extension sets it to the test's runtime once the runtime has started, before the {@code @BeforeEach} methods.
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface InjectRuntime {
}
