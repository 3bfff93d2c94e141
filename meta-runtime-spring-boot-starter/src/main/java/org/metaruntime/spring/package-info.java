/**
 * Spring Boot auto-configuration of the runtime: modules from {@code meta.runtime.*} properties, ToolPod manifests
 * and a Claude Desktop config ({@link org.metaruntime.spring.MetaRuntimeProperties}), the runtime bean started and
 * closed with the context ({@link org.metaruntime.spring.MetaRuntimeAutoConfiguration}), Actuator health
 * ({@link org.metaruntime.spring.MetaRuntimeHealthIndicator}), a Micrometer observation per call, and the modules'
 * tools as Spring AI tool callbacks ({@link org.metaruntime.spring.MetaRuntimeToolCallbackProvider},
 * {@link org.metaruntime.spring.MetaToolFilter}).
 */
package org.metaruntime.spring;
