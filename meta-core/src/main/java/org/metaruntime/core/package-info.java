/**
 * The embeddable runtime: configuration ({@link org.metaruntime.core.MetaConfig},
 * {@link org.metaruntime.core.ModuleConfig}, {@link org.metaruntime.core.RuntimeOptions}), the
 * {@link org.metaruntime.core.UnifiedRuntime} facade that starts, supervises, calls and stops modules, and the
 * composed errors a host matches ({@link org.metaruntime.core.ModuleRouteError},
 * {@link org.metaruntime.core.RuntimeBoundaryError}, {@link org.metaruntime.core.RuntimeFromConfigError}).
 */
package org.metaruntime.core;
