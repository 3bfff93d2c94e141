/**
 * langchain4j tools over a {@code UnifiedRuntime}'s modules: {@link org.metaruntime.langchain4j.MetaRuntimeToolProvider}
 * for {@code AiServices.builder(...).toolProvider(...)}.
 */
package org.metaruntime.langchain4j;
