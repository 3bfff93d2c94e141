/**
 * The health engine of meta-supervisor, not covered by compatibility: the table of legal health transitions
 * ({@link org.metaruntime.supervisor.internal.health.HealthTransitions}), the one state machine that records them
 * ({@link org.metaruntime.supervisor.internal.health.HealthMachine}), the startup procedure of one module
 * ({@link org.metaruntime.supervisor.internal.health.StartupProcedure}) and the supervision after startup
 * ({@link org.metaruntime.supervisor.internal.health.ModuleSupervisor}) with its restart bookkeeping. Hosts see
 * its results through {@link org.metaruntime.supervisor.ModuleHealthTransition},
 * {@link org.metaruntime.supervisor.ModuleSupervisorReport} and {@link org.metaruntime.supervisor.SupervisionOptions}.
 */
package org.metaruntime.supervisor.internal.health;
