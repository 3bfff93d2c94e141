package org.metaruntime.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs each test of the class with its own started {@code UnifiedRuntime}, built from the class's
 * {@link ModuleSource}s and {@link #manifests()}, and closed after the test; the test fails when a module process is
 * left behind. See {@link MetaRuntimeExtension} for the whole contract.
 *
 * <pre>{@code
 * @MetaRuntimeTest
 * class WeatherServiceTest {
 *     @ModuleSource
 *     final FakeMcpModule weather = FakeMcpModule.builder("weather").tool("forecast", args -> sunny).build();
 *
 *     @InjectRuntime
 *     UnifiedRuntime runtime;
 *
 *     @Test
 *     void forecasts() {
 *         runtime.routeModuleCall(new ModuleRouteRequest("weather", "forecast", args));
 *         assertThat(weather.callCount()).isEqualTo(1);
 *     }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(MetaRuntimeExtension.class)
public @interface MetaRuntimeTest {

    /**
     * Folders of ToolPod manifests ({@code *.yaml}, {@code *.yml}; relative paths against the working directory):
     * each pod is a module, as the gateway maps it. Default none.
     */
    String[] manifests() default {};

    /**
     * Whether the runtime runs on a {@link ManualScheduler} and its {@link ManualClock}, which test methods then
     * receive as parameters. Default {@code false}: the runtime's own scheduler and the system clock.
     */
    boolean manualTime() default false;
}
