package org.metaruntime.supervisor.internal.health;

/**
 * One attempt to start a module's child: spawn it and wait until it is proven healthy (the first event of an
 * event-line module, the initialize handshake of an MCP module, or whatever an in-process fake needs).
 *
 * <p>Returning a child is a success; throwing is a failed attempt, and the exception is kept as the last failure.
 * An implementation that gives up on a child it started must stop that child before it throws.
 *
 * <p>An attempt runs on whichever thread makes it: the startup caller's, a restart thread, or the caller of
 * {@link ModuleSupervisor#restartNow()}; an implementation must be safe to call from any thread.
 *
 * <pre>{@code
 * StartAttempt<ModuleProcess> attempt = n -> spawnAndAwaitFirstEvent(config, startupTimeout);
 * }</pre>
 *
 * @param <C> what a started child is
 */
@FunctionalInterface
public interface StartAttempt<C> {

    /**
     * Starts attempt number {@code attempt} (1 for the first).
     *
     * @return the started, healthy child; never {@code null}
     * @throws InterruptedException when the calling thread was interrupted while waiting
     * @throws Exception            when the attempt failed
     */
    C start(int attempt) throws Exception;
}
