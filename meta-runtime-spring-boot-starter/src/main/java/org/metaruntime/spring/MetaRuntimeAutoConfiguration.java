package org.metaruntime.spring;

import io.micrometer.observation.ObservationRegistry;
import org.metaruntime.core.ModuleCallListener;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.spring.internal.CallListeners;
import org.metaruntime.spring.internal.DeclaredModules;
import org.metaruntime.spring.internal.ModuleSources;
import org.metaruntime.spring.internal.ObservingCallListener;
import org.metaruntime.spring.internal.RuntimeStarter;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Runs the application's modules: a {@link UnifiedRuntime} bean ({@code metaRuntime}) built from
 * {@link MetaRuntimeProperties} (modules declared under {@code meta.runtime.modules}, ToolPod manifests and a Claude
 * Desktop config), started with the context and closed with it; an Actuator health indicator
 * ({@code metaRuntimeHealthIndicator}, contributor {@code metaRuntime}) when {@code spring-boot-health} is present;
 * Spring AI tool callbacks ({@code metaRuntimeToolCallbackProvider}) when {@code spring-ai-model} is present; a
 * Micrometer observation {@code meta.runtime.call} per call when Micrometer is present and the context has an
 * {@code ObservationRegistry}. Nothing is created when {@code meta.runtime.enabled=false}.
 *
 * <p>A module that fails to start does not fail the context unless {@code meta.runtime.fail-fast} is set (then
 * {@link MetaRuntimeStartupException}); a configuration error always does, naming the property. A host that defines
 * its own {@code UnifiedRuntime} bean gets the health indicator and the callbacks over it.
 */
@AutoConfiguration
@ConditionalOnProperty(prefix = "meta.runtime", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(MetaRuntimeProperties.class)
public class MetaRuntimeAutoConfiguration {

    /** The modules of every source, checked; a configuration error fails the context here. */
    @Bean
    @ConditionalOnMissingBean
    DeclaredModules metaRuntimeModules(MetaRuntimeProperties properties) {
        return ModuleSources.declare(properties);
    }

    /** The runtime, started with the context and closed with it (no module process is left). */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(UnifiedRuntime.class)
    UnifiedRuntime metaRuntime(MetaRuntimeProperties properties, DeclaredModules modules,
                               ObjectProvider<ModuleCallListener> listeners) {
        ModuleCallListener listener = CallListeners.of(listeners.orderedStream().toList());
        return RuntimeStarter.start(modules, properties.getStateDir(), listener, properties.isFailFast());
    }

    /** Actuator health of the runtime's modules. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    static class Health {

        @Bean
        @ConditionalOnMissingBean(name = "metaRuntimeHealthIndicator")
        MetaRuntimeHealthIndicator metaRuntimeHealthIndicator(UnifiedRuntime runtime, DeclaredModules modules) {
            return new MetaRuntimeHealthIndicator(runtime, modules);
        }
    }

    /** The modules' tools as Spring AI tool callbacks. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ToolCallbackProvider.class)
    static class SpringAi {

        @Bean
        @ConditionalOnMissingBean(name = "metaRuntimeToolCallbackProvider")
        MetaRuntimeToolCallbackProvider metaRuntimeToolCallbackProvider(UnifiedRuntime runtime, DeclaredModules modules,
                                                                        ObjectProvider<MetaToolFilter> filters) {
            return new MetaRuntimeToolCallbackProvider(runtime, modules, filters.orderedStream().toList());
        }
    }

    /** A Micrometer observation per call. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ObservationRegistry.class)
    static class Observations {

        @Bean
        ModuleCallListener metaRuntimeCallObservations(ObjectProvider<ObservationRegistry> registry) {
            return new ObservingCallListener(registry::getIfAvailable);
        }
    }
}
