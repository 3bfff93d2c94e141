package org.metaruntime.supervisor.internal;

import java.io.IOException;
import java.util.Objects;
import org.metaruntime.supervisor.OversizedLine;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.ProcessListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls a {@link ProcessListener}, catching and logging whatever it throws. Thread-safe if the delegate is. */
public final class GuardedListener implements ProcessListener {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessListener.class);

    private final String moduleId;
    private final ProcessListener delegate;

    /** Guards {@code delegate}; {@code moduleId} names the module in the log. */
    public GuardedListener(String moduleId, ProcessListener delegate) {
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public void onLine(String line) {
        guard("onLine", () -> delegate.onLine(line));
    }

    @Override
    public void onLineTooLong(int limit) {
        guard("onLineTooLong", () -> delegate.onLineTooLong(limit));
    }

    @Override
    public void onOversizedLine(OversizedLine line) {
        guard("onOversizedLine", () -> delegate.onOversizedLine(line));
    }

    @Override
    public void onStdoutClosed() {
        guard("onStdoutClosed", delegate::onStdoutClosed);
    }

    @Override
    public void onStdoutError(IOException e) {
        guard("onStdoutError", () -> delegate.onStdoutError(e));
    }

    @Override
    public void onExit(ProcessExit exit) {
        guard("onExit", () -> delegate.onExit(exit));
    }

    private void guard(String method, Runnable call) {
        try {
            call.run();
        } catch (RuntimeException | LinkageError | AssertionError e) {
            LOG.warn("module '{}': process listener {} threw; ignored", moduleId, method, e);
        }
    }
}
