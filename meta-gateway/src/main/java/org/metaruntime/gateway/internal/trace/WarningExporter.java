package org.metaruntime.gateway.internal.trace;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A span exporter that says in the gateway's log when spans could not be exported: one warning when exports start
 * failing (and one line when they work again), never an exception. Thread-safe.
 */
final class WarningExporter implements SpanExporter {

    private static final Logger log = LoggerFactory.getLogger(WarningExporter.class);

    private final SpanExporter delegate;
    private final AtomicBoolean failing = new AtomicBoolean();

    WarningExporter(SpanExporter delegate) {
        this.delegate = delegate;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        CompletableResultCode result;
        try {
            result = delegate.export(spans);
        } catch (RuntimeException e) {
            failed(spans.size(), e.toString());
            return CompletableResultCode.ofFailure();
        }
        result.whenComplete(() -> {
            if (result.isSuccess()) {
                if (failing.compareAndSet(true, false)) {
                    log.info("traces: spans are exported again");
                }
            } else {
                Throwable cause = result.getFailureThrowable();
                failed(spans.size(), cause == null ? "the receiver refused them" : cause.toString());
            }
        });
        return result;
    }

    private void failed(int spans, String why) {
        if (failing.compareAndSet(false, true)) {
            log.warn("traces: {} span(s) could not be exported ({}); calls go on, later failures are not logged until an export succeeds",
                    spans, why);
        }
    }

    @Override
    public CompletableResultCode flush() {
        return delegate.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
        return delegate.shutdown();
    }
}
